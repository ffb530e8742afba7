package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.schemas.SecretChange;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.Optional;

/**
 * Applies a {@link SecretUpdate} to a stored secret. A new value must arrive sealed: a plain one would
 * sit in the state store, its changelog and the events topic in clear text, so it is refused, not
 * stored. An absent update keeps the secret (the admin did not mention it).
 */
final class SecretUpdates {
    private SecretUpdates() {}

    static Optional<String> problem(SecretUpdate update, String field) {
        if (update == null) {
            return Optional.empty();
        }
        if (update.change() == null) {
            return Optional.of(field + " must be kept, set or cleared");
        }
        if (update.change() == SecretChange.SET) {
            return update.sealed() != null && update.sealed().hasSealedForm()
                    ? Optional.empty()
                    : Optional.of(field + " must be sealed with SecretBox");
        }
        return update.sealed() == null
                ? Optional.empty()
                : Optional.of(field + " carries a value only when it is set");
    }

    /** The secret after the update; call only when {@link #problem} found none. */
    static SealedSecret apply(SecretUpdate update, SealedSecret current) {
        if (update == null || update.change() == SecretChange.KEEP) {
            return current;
        }
        return update.change() == SecretChange.SET ? update.sealed() : null;
    }
}
