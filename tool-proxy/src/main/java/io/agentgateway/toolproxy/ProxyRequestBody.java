package io.agentgateway.toolproxy;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.RequestBodies;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Reads a proxied request's body whole, as bytes, up to {@code gateway.proxy.max-body-bytes} (then
 * 413 {@code Request body too large}). Buffered on purpose: the exact bytes are sealed into the
 * evaluation as the held call, and nothing reaches the upstream before the decision anyway.
 */
final class ProxyRequestBody {
    private static final byte[] QUOTED_FIELD = "name=\"_method\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BARE_FIELD = "name=_method".getBytes(StandardCharsets.US_ASCII);

    private ProxyRequestBody() {}

    static Mono<byte[]> read(ServerRequest request, int maxBytes) {
        return RequestBodies.bytes(request, maxBytes);
    }

    /**
     * Refuses a form body with a {@code _method} field (Rails' and Laravel's method override: a
     * {@code POST} with {@code _method=delete} runs as a DELETE). Only form bodies are looked at, in
     * place: {@code application/x-www-form-urlencoded} by its field names (decoded once, any case),
     * {@code multipart/form-data} by a part named {@code _method}.
     *
     * @throws ApiException 400 when the body names a method
     */
    static void refuseMethodField(HttpHeaders headers, byte[] body) {
        String declared = headers.getFirst(HttpHeaders.CONTENT_TYPE);
        if (declared == null || body.length == 0 || !mentionsForm(declared)) {
            return; // the usual JSON request: no parsing of its media type at all
        }
        MediaType type;
        try {
            type = headers.getContentType();
        } catch (RuntimeException e) {
            return; // not a form; the upstream judges its own content type
        }
        boolean named = false;
        if (MediaType.APPLICATION_FORM_URLENCODED.equalsTypeAndSubtype(type)) {
            named = formNamesMethod(new Latin1View(body));
        } else if (MediaType.MULTIPART_FORM_DATA.equalsTypeAndSubtype(type)) {
            named = containsIgnoreCase(body, QUOTED_FIELD) || containsIgnoreCase(body, BARE_FIELD);
        }
        if (named) {
            throw ApiException.badRequest("The proxy does not accept a _method form field: send the request with the method itself");
        }
    }

    private static boolean mentionsForm(String contentType) {
        for (int i = 0; i + 4 <= contentType.length(); i++) {
            if (contentType.regionMatches(true, i, "form", 0, 4)) {
                return true;
            }
        }
        return false;
    }

    private static boolean formNamesMethod(CharSequence form) {
        int start = 0;
        while (start <= form.length()) {
            int end = start;
            int equals = -1;
            while (end < form.length() && form.charAt(end) != '&') {
                if (equals < 0 && form.charAt(end) == '=') {
                    equals = end;
                }
                end++;
            }
            if (UpstreamPath.isMethodParameter(form, start, equals < 0 ? end : equals)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** The body's bytes read as Latin-1 characters, without a copy (form field names are ASCII). */
    private record Latin1View(byte[] bytes) implements CharSequence {
        @Override
        public int length() {
            return bytes.length;
        }

        @Override
        public char charAt(int index) {
            return (char) (bytes[index] & 0xFF);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    private static boolean containsIgnoreCase(byte[] body, byte[] lowerCaseNeedle) {
        outer:
        for (int i = 0; i + lowerCaseNeedle.length <= body.length; i++) {
            for (int j = 0; j < lowerCaseNeedle.length; j++) {
                byte b = body[i + j];
                if (b >= 'A' && b <= 'Z') {
                    b = (byte) (b + ('a' - 'A'));
                }
                if (b != lowerCaseNeedle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

}
