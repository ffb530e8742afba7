package io.agentgateway.adminapi.tools;

import io.agentgateway.adminapi.shared.SecretSealer;
import io.agentgateway.schemas.SecretChange;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.secret.PlainSecret;

/**
 * What a request body says about one write-only secret: nothing (keep it), {@code null} (remove it) or
 * a new value, held as a {@link PlainSecret} until it is sealed, so that it cannot be printed meanwhile.
 */
record SecretInput(SecretChange change, PlainSecret value) {
    static final SecretInput KEEP = new SecretInput(SecretChange.KEEP, null);
    static final SecretInput CLEAR = new SecretInput(SecretChange.CLEAR, null);

    static SecretInput set(PlainSecret value) {
        return new SecretInput(SecretChange.SET, value);
    }

    boolean isSet() {
        return change == SecretChange.SET;
    }

    /** The update as it goes into the command: a new value sealed, never in clear. */
    SecretUpdate sealedWith(SecretSealer sealer) {
        return switch (change) {
            case KEEP -> SecretUpdate.keep();
            case CLEAR -> SecretUpdate.clear();
            case SET -> SecretUpdate.set(sealer.seal(value));
        };
    }
}
