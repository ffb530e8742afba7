package io.agentgateway.schemas;

import io.agentgateway.schemas.secret.SealedSecret;

/**
 * What to do with one stored secret of a tool connection. The secret is write-only: an admin who
 * changes a repository list must not have to send the token again, so "keep" is the usual case; a new
 * value arrives already sealed by the ingress, never in clear.
 *
 * @param sealed the new value for {@link SecretChange#SET}, null otherwise
 */
public record SecretUpdate(SecretChange change, SealedSecret sealed) {

    public static SecretUpdate keep() {
        return new SecretUpdate(SecretChange.KEEP, null);
    }

    public static SecretUpdate clear() {
        return new SecretUpdate(SecretChange.CLEAR, null);
    }

    public static SecretUpdate set(SealedSecret sealed) {
        return new SecretUpdate(SecretChange.SET, sealed);
    }
}
