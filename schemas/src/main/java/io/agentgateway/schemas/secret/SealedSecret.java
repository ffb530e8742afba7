package io.agentgateway.schemas.secret;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A secret as it may travel and be stored: sealed by {@link SecretBox}
 * ({@code v1.<base64url(iv || ciphertext+tag)>}). On the wire it is that plain string; in Java it is
 * this type so that no record holding one can print it: {@link #toString()} is redacted, and the
 * records of the contract print their components with {@code toString}.
 */
public final class SealedSecret {
    private static final Pattern SEALED_FORM = Pattern.compile("v1\\.[A-Za-z0-9_-]+");

    private final String value;

    private SealedSecret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    /** Wraps what a reader found on the wire; whether it has the sealed form is checked by {@link #hasSealedForm()}. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static SealedSecret of(String value) {
        return new SealedSecret(value);
    }

    /** The sealed form, for the wire and for a table column. */
    @JsonValue
    public String value() {
        return value;
    }

    /** Whether this looks like SecretBox output; a plain value put here by mistake does not. */
    public boolean hasSealedForm() {
        return SEALED_FORM.matcher(value).matches();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SealedSecret that && value.equals(that.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "SealedSecret[redacted]";
    }
}
