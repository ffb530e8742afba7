package io.agentgateway.adminapi.audit;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.Uuids;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.UUID;

/**
 * The keyset position after the last row of a page: its {@code occurred_at} and {@code id}. Sent to
 * clients as an opaque base64url token; its content is no contract.
 */
public record AuditCursor(Instant occurredAt, UUID id) {
    public static final String INVALID = "cursor is invalid";

    public String encode() {
        String raw = occurredAt + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws io.agentgateway.httpedge.web.ApiException 400 {@value #INVALID} for anything but a token of {@link #encode} */
    public static AuditCursor decode(String token) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int bar = raw.indexOf('|');
            if (bar < 0) {
                throw ApiException.badRequest(INVALID);
            }
            UUID id = Uuids.canonical(raw.substring(bar + 1)).map(UUID::fromString)
                    .orElseThrow(() -> ApiException.badRequest(INVALID));
            Instant occurredAt = Instant.parse(raw.substring(0, bar));
            if (!JsonFields.inRange(occurredAt)) {
                throw ApiException.badRequest(INVALID);
            }
            return new AuditCursor(occurredAt, id);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw ApiException.badRequest(INVALID);
        }
    }
}
