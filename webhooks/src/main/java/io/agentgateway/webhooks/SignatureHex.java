package io.agentgateway.webhooks;

import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/** A SHA-256 HMAC as 64 hex digits (either case), decoded; anything else is a malformed signature. */
final class SignatureHex {
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

    private SignatureHex() {}

    static byte[] decode(String hex) {
        if (hex == null || !SHA256_HEX.matcher(hex).matches()) {
            throw WebhookRejection.malformedSignature();
        }
        return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
    }
}
