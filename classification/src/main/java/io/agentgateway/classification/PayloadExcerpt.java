package io.agentgateway.classification;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;

/**
 * The payload as the audit log keeps it: compact JSON cut to a byte limit. The cut never splits a
 * UTF-8 sequence, so the excerpt is always valid text (it is not valid JSON once cut).
 *
 * @param text       null when there was no payload
 * @param truncated  whether {@code text} is shorter than the payload
 * @param fullBytes  UTF-8 size of the whole compact payload
 */
public record PayloadExcerpt(String text, boolean truncated, int fullBytes) {

    /**
     * A webhook delivery's excerpt: of its payload, or (an unmatched delivery, which carries only an excerpt
     * made by the ingress) of that excerpt, cut again to {@code limitBytes} if it is longer.
     */
    public static PayloadExcerpt ofWebhook(ReceiveWebhook webhook, int limitBytes) {
        if (webhook.payload() != null || webhook.payloadExcerpt() == null) {
            return of(webhook.payload(), limitBytes);
        }
        byte[] utf8 = webhook.payloadExcerpt().getBytes(StandardCharsets.UTF_8);
        int whole = webhook.payloadBytes() == null ? utf8.length : Math.max(webhook.payloadBytes(), utf8.length);
        if (utf8.length <= limitBytes) {
            return new PayloadExcerpt(webhook.payloadExcerpt(), utf8.length < whole, whole);
        }
        return new PayloadExcerpt(new String(utf8, 0, cutAt(utf8, limitBytes), StandardCharsets.UTF_8), true, whole);
    }

    /** The longest prefix of at most {@code limitBytes} that does not split a UTF-8 sequence. */
    public static int cutAt(byte[] utf8, int limitBytes) {
        if (utf8.length <= limitBytes) {
            return utf8.length;
        }
        int cut = limitBytes;
        while (cut > 0 && (utf8[cut] & 0xC0) == 0x80) {
            cut--;
        }
        return cut;
    }

    public static PayloadExcerpt of(JsonNode payload, int limitBytes) {
        if (payload == null || payload.isMissingNode()) {
            return new PayloadExcerpt(null, false, 0);
        }
        byte[] utf8 = GatewayJson.MAPPER.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= limitBytes) {
            return new PayloadExcerpt(new String(utf8, StandardCharsets.UTF_8), false, utf8.length);
        }
        int cut = limitBytes;
        // step back over continuation bytes (10xxxxxx) to the start of the sequence that would be split
        while (cut > 0 && (utf8[cut] & 0xC0) == 0x80) {
            cut--;
        }
        return new PayloadExcerpt(new String(utf8, 0, cut, StandardCharsets.UTF_8), true, utf8.length);
    }
}
