package io.agentgateway.adminapi.tools;

import io.agentgateway.schemas.secret.PlainSecret;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * New webhook secrets: 32 bytes from the platform's strong random source, as 64 hex characters (the
 * upstreams' settings pages take any text; hex survives every copy and paste).
 */
final class WebhookSecrets {
    private static final int BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSecrets() {}

    static PlainSecret generate() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return PlainSecret.of(HexFormat.of().formatHex(bytes));
    }
}
