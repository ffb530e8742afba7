package io.agentgateway.agentapi.evaluate;

import io.agentgateway.gatewayclient.AnswerWrites;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * evaluate-action's answer is the decision itself: its in-flight journal entry is kept until that answer was written
 * ({@link AnswerWrites}), so that an ingress killed while the answer was still being mapped, encoded or written leaves
 * the evaluation for its next start to report as reaching nobody, and a caller that hung up while it was written has it
 * reported at once (499). The filter chain completes once the response is written to the connection; an error before
 * anything of the response was written is answered by the error handler as before (the entry released, as when the
 * decision is handed on); one after (the connection failed mid-write) lost the answer.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class EvaluateAnswerWrites implements WebFilter {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!EvaluateActionHandler.PATH.equals(exchange.getRequest().getPath().pathWithinApplication().value())) {
            return chain.filter(exchange);
        }
        AnswerWrites writes = new AnswerWrites();
        return chain.filter(exchange)
                .doOnSuccess(done -> writes.written())
                .doOnError(failed -> {
                    if (exchange.getResponse().isCommitted()) {
                        writes.lost();
                    } else {
                        writes.written();
                    }
                })
                .doOnCancel(writes::lost)
                .contextWrite(Context.of(AnswerWrites.CONTEXT_KEY, writes));
    }
}
