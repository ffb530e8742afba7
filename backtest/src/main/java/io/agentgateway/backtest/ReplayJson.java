package io.agentgateway.backtest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectReader;

/**
 * Events as a replay reads them: the contract's own mapper, except that what no decision and no report
 * line depends on is skipped rather than built into strings and objects: the payload excerpt (most of
 * an audit entry's bytes), the names and requester of an evaluation, the correlation and actor
 * of the envelope. Decoding is most of a back-test's time; this roughly doubles its speed.
 */
final class ReplayJson {
    @JsonIgnoreProperties({"payloadExcerpt", "matchedPolicyName", "agentName", "requestedBy"})
    private abstract static class EvaluationAsReplayed {}

    @JsonIgnoreProperties({"correlationId", "actor"})
    private abstract static class EnvelopeAsReplayed {}

    private static final ObjectReader ENVELOPES = GatewayJson.MAPPER.rebuild()
            .addMixIn(ActionEvaluated.class, EvaluationAsReplayed.class)
            .addMixIn(EventEnvelope.class, EnvelopeAsReplayed.class)
            .build()
            .readerFor(EventEnvelope.class);

    private static final ObjectReader COMMANDS = GatewayJson.MAPPER.readerFor(CommandEnvelope.class);

    private ReplayJson() {}

    /**
     * A command envelope, or null when the bytes are not one this version can read. Only evaluations and webhooks
     * carry inputs a replay needs: the others are recognized by their type name and not decoded.
     */
    static CommandEnvelope command(byte[] value) {
        if (value == null || !(contains(value, EVALUATE_ACTION) || contains(value, RECEIVE_WEBHOOK))) {
            return null;
        }
        try {
            return COMMANDS.readValue(value);
        } catch (JacksonException e) {
            return null;
        }
    }

    private static final byte[] EVALUATE_ACTION = "\"evaluate_action\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] RECEIVE_WEBHOOK = "\"receive_webhook\"".getBytes(StandardCharsets.UTF_8);

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The envelope, or null when the bytes are not one this version can read (a newer writer, damage). */
    static EventEnvelope envelope(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return ENVELOPES.readValue(value);
        } catch (JacksonException e) {
            return null;
        }
    }
}
