package io.agentgateway.schemas.secret;

import com.fasterxml.jackson.annotation.JsonIgnoreType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * An opened secret (a tool's access token, a webhook secret), held only in memory by the component
 * that must use it. It cannot leak by accident: {@link #toString()} is redacted, JSON never writes it
 * (a field of this type is left out of any serialized value), and the value is read only through
 * {@link #reveal()}, which makes every use visible in the code.
 */
@JsonIgnoreType
public final class PlainSecret {
    private final String value;

    private PlainSecret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    public static PlainSecret of(String value) {
        return new PlainSecret(value);
    }

    /** The plain value, to put into an upstream header or an HMAC key; never into a log line or a response. */
    public String reveal() {
        return value;
    }

    /** Compares in time independent of where the texts differ (for signatures and shared secrets). */
    public boolean matches(String candidate) {
        return candidate != null && MessageDigest.isEqual(
                value.getBytes(StandardCharsets.UTF_8), candidate.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "PlainSecret[redacted]";
    }
}
