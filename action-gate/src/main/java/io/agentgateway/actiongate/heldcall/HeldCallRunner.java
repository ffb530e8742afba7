package io.agentgateway.actiongate.heldcall;

import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.call.HeldCall;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Replays one kind of held call against its upstream, once. Entry points that hold calls register a
 * runner for their kind as a bean (the HTTP proxy: {@link HttpHeldCallRunner}; the MCP gate: its
 * {@code tools/call} runner). An approved call of a kind nobody runs is left approved, unclaimed.
 *
 * <p>A runner must not retry: the executor's claim makes the run at-most-once only if the runner
 * sends at most once.
 */
public interface HeldCallRunner {

    HeldCallKind kind();

    /**
     * @return the execution result: an object with a {@code content} array of {@code {type, text}}
     *         items (spec section 2), {@code isError} when the upstream said no. An error signal means
     *         the call got no answer; its message becomes the text of a failed result, so it must
     *         not quote secrets.
     */
    Mono<JsonNode> run(HeldCallContext context, HeldCall call);
}
