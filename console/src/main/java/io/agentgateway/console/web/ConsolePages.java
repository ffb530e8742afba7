package io.agentgateway.console.web;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import reactor.core.publisher.Mono;

/**
 * Renders the console's Thymeleaf templates to HTML. Every value an agent or an upstream controls is put on the page
 * with {@code th:text} (escaped), never {@code th:utext}; links are built only from ids validated as UUIDs.
 */
@Component
public class ConsolePages {
    public static final MediaType HTML = MediaType.parseMediaType("text/html;charset=UTF-8");

    private final TemplateEngine engine;

    public ConsolePages(TemplateEngine consoleTemplateEngine) {
        this.engine = consoleTemplateEngine;
    }

    /** @param template a template's name, or {@code name :: fragment} for one fragment of it */
    public String render(String template, Map<String, ?> model) {
        Context context = new Context(Locale.ENGLISH);
        model.forEach(context::setVariable);
        int selector = template.indexOf(" :: ");
        if (selector < 0) {
            return engine.process(template, context);
        }
        return engine.process(template.substring(0, selector), Set.of(template.substring(selector + 4)), context);
    }

    public Mono<ServerResponse> page(String template, Map<String, ?> model) {
        return page(HttpStatus.OK, template, model);
    }

    public Mono<ServerResponse> page(HttpStatusCode status, String template, Map<String, ?> model) {
        return ServerResponse.status(status).contentType(HTML).header("Cache-Control", "no-store")
                .bodyValue(render(template, model));
    }
}
