package io.agentgateway.ingressapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * {@code docs/openapi.yaml} against the running ingress: the paths and methods of every route it serves (its router
 * functions, walked) are exactly the description's; every operation describes its errors with the {@code Error} body;
 * an operation called without credentials answers a status the description lists, with that body; a method a path
 * does not serve is 405 naming in {@code Allow} exactly the methods described. The management port serves the file.
 */
class OpenApiRoutesTest {
    private static final Path DESCRIPTION = Path.of("..", "docs", "openapi.yaml");
    /** What a route that takes every method (the proxy) must describe. */
    private static final Set<String> EVERY_METHOD = Set.of("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH");
    private static final Set<String> CONSOLE_ROUTES = Set.of("consoleRoutes", "consoleAdminRoutes");
    private static final Pattern TEMPLATE_VARIABLE = Pattern.compile("\\{([^}]+)}");

    private static OpenAPI api;
    private static RunningIngress ingress;

    @BeforeAll
    static void parse() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setResolveFully(true);
        SwaggerParseResult parsed = new OpenAPIParser().readLocation(DESCRIPTION.toAbsolutePath().toUri().toString(), null, options);
        assertThat(parsed.getMessages()).as("the description is valid OpenAPI").isEmpty();
        api = parsed.getOpenAPI();
        assertThat(api.getOpenapi()).isEqualTo("3.1.0");
        ingress = SharedIngress.ingress();
    }

    /**
     * route pattern → methods, as the ingress serves them: the HTTP API's routes. The console's pages (beans
     * {@code consoleRoutes} and {@code consoleAdminRoutes}: HTML for browsers, its assets, sign-in) are not the API and
     * are not described.
     */
    private static Map<String, Set<String>> servedRoutes() {
        Map<String, Set<String>> served = new TreeMap<>();
        ingress.context.getBeansOfType(RouterFunction.class).forEach((name, routes) -> {
            if (!CONSOLE_ROUTES.contains(name)) {
                routes.accept(new RouteCollector(served));
            }
        });
        return served;
    }

    /** route pattern → methods, as the description has them (x-route where the pattern cannot be a path template). */
    private static Map<String, Set<String>> describedRoutes() {
        Map<String, Set<String>> described = new TreeMap<>();
        api.getPaths().forEach((path, item) -> {
            Object route = item.getExtensions() == null ? null : item.getExtensions().get("x-route");
            described.put(route != null ? route.toString() : path, item.readOperationsMap().keySet().stream()
                    .map(method -> method.name()).collect(Collectors.toCollection(TreeSet::new)));
        });
        return described;
    }

    @Test
    void everyRouteTheIngressServesIsDescribedWithExactlyItsMethods() {
        Map<String, Set<String>> served = servedRoutes();
        assertThat(served).as("the ingress serves routes").hasSizeGreaterThan(20);
        Map<String, Set<String>> described = describedRoutes();
        List<String> differences = new ArrayList<>();
        served.forEach((route, methods) -> {
            Set<String> expected = methods.isEmpty() ? new TreeSet<>(EVERY_METHOD) : methods;
            if (!described.containsKey(route)) {
                differences.add("served but not described: " + expected + " " + route);
            } else if (!described.get(route).equals(expected)) {
                differences.add(route + " serves " + expected + " but is described with " + described.get(route));
            }
        });
        described.keySet().stream().filter(route -> !served.containsKey(route))
                .forEach(route -> differences.add("described but not served: " + route));
        assertThat(differences).isEmpty();
    }

    @Test
    void everyOperationDescribesItsErrorsWithTheErrorBody() {
        Schema<?> error = api.getComponents().getSchemas().get("Error");
        assertThat(error.getRequired()).containsExactlyInAnyOrder("ok", "error", "correlationId");
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            String name = method + " " + path;
            assertThat(operation.getOperationId()).as(name).isNotBlank();
            assertThat(operation.getResponses()).as(name + " answers").isNotEmpty();
            List<String> errors = operation.getResponses().keySet().stream().filter(code -> code.startsWith("4") || code.startsWith("5")).toList();
            assertThat(errors).as(name + " describes its errors").isNotEmpty();
            if (operation.getSecurity() == null || !operation.getSecurity().isEmpty()) {
                assertThat(errors).as(name + " needs a credential").contains("401");
            }
            errors.forEach(code -> {
                var content = operation.getResponses().get(code).getContent();
                assertThat(content).as(name + " " + code + " has a body").isNotNull();
                Schema<?> body = content.get("application/json").getSchema();
                assertThat(body.getRequired()).as(name + " " + code + " is an error body")
                        .isIn(error.getRequired(), api.getComponents().getSchemas().get("ProxyBlocked").getRequired());
                assertThat(body.getProperties()).as(name + " " + code + " is an error body").containsKey("error");
            });
        }));
    }

    @Test
    void everyOperationCalledWithoutACredentialAnswersADescribedStatusWithTheErrorBody() {
        List<String> differences = new ArrayList<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            if (method == PathItem.HttpMethod.HEAD || method == PathItem.HttpMethod.OPTIONS) {
                return;
            }
            TestHttp.Request request = ingress.http.request(method.name(), concrete(path));
            if (operation.getRequestBody() != null) {
                request.body("{}");
            }
            TestHttp.Response response = request.send();
            String status = Integer.toString(response.status());
            if (!operation.getResponses().containsKey(status)) {
                differences.add(method + " " + path + " answered " + status + ", described: " + operation.getResponses().keySet());
                return;
            }
            if (response.status() >= 400) {
                JsonNode body = response.json();
                if (body.path("ok").asBoolean(true) || body.path("error").asString("").isBlank()
                        || !body.path("correlationId").asString("").matches("[0-9a-f-]{36}")) {
                    differences.add(method + " " + path + " answered " + status + " without the Error body: " + response.text());
                }
            }
        }));
        assertThat(differences).isEmpty();
    }

    @Test
    void aMethodAPathDoesNotServeIs405NamingTheDescribedMethods() {
        List<String> differences = new ArrayList<>();
        api.getPaths().forEach((path, item) -> {
            Set<String> described = item.readOperationsMap().keySet().stream().map(Enum::name).collect(Collectors.toSet());
            if (described.containsAll(EVERY_METHOD)) {
                return;
            }
            String other = Arrays.stream(new String[] {"PATCH", "PUT", "DELETE", "POST", "GET"})
                    .filter(method -> !described.contains(method)).findFirst().orElseThrow();
            TestHttp.Response response = ingress.http.request(other, concrete(path)).send();
            Set<String> allowed = response.headers().first("Allow") == null ? Set.of()
                    : Arrays.stream(response.headers().first("Allow").split(",")).map(String::strip).collect(Collectors.toSet());
            if (response.status() != 405 || !allowed.equals(described) || !response.text().contains("\"ok\":false")) {
                differences.add(other + " " + path + ": " + response.status() + " Allow " + allowed + ", described " + described);
            }
        });
        assertThat(differences).isEmpty();
    }

    @Test
    void theManagementPortServesTheDescription() throws Exception {
        TestHttp.Response served = ingress.management().get("/actuator/openapi").send();
        assertThat(served.status()).isEqualTo(200);
        assertThat(served.headers().first("Content-Type")).startsWith("application/yaml");
        assertThat(served.text()).isEqualTo(Files.readString(DESCRIPTION, StandardCharsets.UTF_8));
    }

    /** The path with its template variables filled: a fresh uuid, a tool name, an upstream path. */
    private static String concrete(String path) {
        Matcher variables = TEMPLATE_VARIABLE.matcher(path);
        StringBuilder filled = new StringBuilder();
        while (variables.find()) {
            String value = switch (variables.group(1)) {
                case "tool" -> "code_host";
                case "upstreamPath" -> "repos/acme/api/issues";
                case "userId" -> "user-1";
                default -> UUID.randomUUID().toString();
            };
            variables.appendReplacement(filled, value);
        }
        variables.appendTail(filled);
        return filled.toString();
    }

    /** Walks a router function: each route's path pattern, with the methods {@link MethodRoutes} names (none: every method). */
    private static final class RouteCollector implements RouterFunctions.Visitor, RequestPredicates.Visitor {
        private final Map<String, Set<String>> routes;
        private final List<String> paths = new ArrayList<>();
        private final Set<String> methods = new TreeSet<>();
        private Map<String, Object> attributes = Map.of();

        RouteCollector(Map<String, Set<String>> routes) {
            this.routes = routes;
        }

        @Override
        public void attributes(Map<String, Object> attributes) {
            this.attributes = attributes;
        }

        @Override
        public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
            paths.clear();
            methods.clear();
            predicate.accept(this);
            Object named = attributes.get(MethodRoutes.METHODS);
            if (named instanceof List<?> list) {
                list.forEach(method -> methods.add(((HttpMethod) method).name()));
            }
            assertThat(paths).as("a route is one path pattern: " + predicate).hasSize(1);
            routes.merge(paths.get(0), new TreeSet<>(methods), (a, b) -> {
                throw new AssertionError("two routes for " + paths.get(0));
            });
            attributes = Map.of();
        }

        @Override
        public void method(Set<HttpMethod> methods) {
            methods.forEach(method -> this.methods.add(method.name()));
        }

        @Override
        public void path(String pattern) {
            paths.add(pattern);
        }

        @Override
        public void startNested(RequestPredicate predicate) {
            throw new AssertionError("nested routes are not described: " + predicate);
        }

        @Override
        public void endNested(RequestPredicate predicate) {}

        @Override
        public void resources(Function<ServerRequest, Mono<Resource>> lookupFunction) {
            throw new AssertionError("resources are not described");
        }

        @Override
        public void unknown(RouterFunction<?> routerFunction) {
            throw new AssertionError("a route the description cannot list: " + routerFunction);
        }

        @Override
        public void version(String version) {}

        @Override
        public void pathExtension(String extension) {}

        @Override
        public void header(String name, String value) {}

        @Override
        public void queryParam(String name, String value) {}

        @Override
        public void startAnd() {}

        @Override
        public void and() {}

        @Override
        public void endAnd() {}

        @Override
        public void startOr() {}

        @Override
        public void or() {}

        @Override
        public void endOr() {}

        @Override
        public void startNegate() {}

        @Override
        public void endNegate() {}

        @Override
        public void unknown(RequestPredicate predicate) {
            throw new AssertionError("a route predicate the description cannot list: " + predicate);
        }
    }
}
