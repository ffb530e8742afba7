package io.agentgateway.toolproxy;

import io.agentgateway.httpedge.web.ApiException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one reading of a proxied request's target: the upstream path after
 * {@code /functions/v1/gateway-proxy/<tool>} in canonical form, and the query as received. The request
 * is classified by {@link #segments()} and forwarded (and held for approval) as {@link #canonical()},
 * which is those very segments encoded again by one strict encoder; a target with more than one
 * reading is refused with 400 instead.
 *
 * <p>The rules (docs/proxy.md, "One reading of a request"):
 * <ul>
 *   <li>each raw segment is percent-decoded exactly once, as UTF-8 (a malformed escape or invalid
 *       UTF-8 is refused); an encoded {@code /} ({@code %2F}) is a separator, as the code host reads it:
 *       {@code git/refs/heads%2Ffeature-x} is {@code git/refs/heads/feature-x};</li>
 *   <li>refused after decoding: a backslash, a {@code %} (double encoding), a control character or NUL,
 *       a {@code ;} (path parameters), a {@code .} or {@code ..} segment, an empty segment (one trailing
 *       slash excepted: it is kept, naming no segment);</li>
 *   <li>{@link #canonical()} percent-encodes every byte of a segment's UTF-8 outside
 *       {@code A-Z a-z 0-9 - . _ ~ ! $ & ' ( ) * , = : @} as {@code %XX} (upper-case hex), so
 *       {@code +} is sent as {@code %2B} and never read as a space;</li>
 *   <li>the query is forwarded exactly as received, but a {@code _method} parameter (any case, also
 *       percent-encoded, also after a {@code ;}, also as PHP spells it) is refused: it overrides the
 *       method on some upstreams.</li>
 * </ul>
 * Case is kept: the classifiers compare case-insensitively where the upstream does (see
 * {@link ProxyClassifier}, {@link RulePathPattern}).
 *
 * <p>Cheap on the hot path: a target that is canonical already (the usual one) is scanned once and its
 * raw string is the canonical one; nothing is compiled or copied per request beyond the segment list.
 */
record UpstreamPath(String canonical, String query, List<String> segments) {
    static final String METHOD_PARAMETER = "_method";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** The characters the encoder leaves as they are: RFC 3986 unreserved and sub-delims, less {@code ;} and {@code +}. */
    private static final boolean[] LITERAL = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) LITERAL[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) LITERAL[c] = true;
        for (char c = '0'; c <= '9'; c++) LITERAL[c] = true;
        for (char c : "-._~!$&'()*,=:@".toCharArray()) LITERAL[c] = true;
    }

    UpstreamPath {
        segments = List.copyOf(segments);
    }

    /**
     * @param rawPath  the upstream path as received, still percent-encoded ({@code /} when empty)
     * @param rawQuery the raw query, or null
     * @throws ApiException 400 with the reason when the target has no single reading
     */
    static UpstreamPath parse(String rawPath, String rawQuery) {
        if (rawPath == null || rawPath.isEmpty()) {
            rawPath = "/";
        }
        if (rawPath.charAt(0) != '/') {
            throw ApiException.badRequest("The upstream path must start with /");
        }
        String query = rawQuery == null || rawQuery.isEmpty() ? null : rawQuery;
        refuseMethodParameter(query);
        boolean trailingSlash = rawPath.length() > 1 && rawPath.endsWith("/");
        String body = rawPath.substring(1, trailingSlash ? rawPath.length() - 1 : rawPath.length());
        List<String> segments = new ArrayList<>();
        if (!body.isEmpty()) {
            boolean literal = isLiteral(body);
            int start = 0;
            while (start <= body.length()) {
                int end = body.indexOf('/', start);
                if (end < 0) {
                    end = body.length();
                }
                String raw = body.substring(start, end);
                if (literal) {
                    addChecked(segments, raw);
                } else {
                    addDecoded(segments, raw);
                }
                start = end + 1;
            }
            if (literal) {
                // every character is one the encoder keeps and no segment changed: the raw path is canonical
                return new UpstreamPath(rawPath, query, segments);
            }
        }
        return new UpstreamPath(encode(segments, trailingSlash), query, segments);
    }

    /** The decoded segment at {@code index}, or null. */
    String segment(int index) {
        return index < segments.size() ? segments.get(index) : null;
    }

    private static boolean isLiteral(String body) {
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '/' && (c >= 128 || !LITERAL[c])) {
                return false;
            }
        }
        return true;
    }

    private static void addDecoded(List<String> into, String raw) {
        String decoded = decodeOnce(raw);
        // an encoded slash separates segments, as the code host (and most routers) read it
        int start = 0;
        while (true) {
            int slash = decoded.indexOf('/', start);
            addChecked(into, slash < 0 ? decoded.substring(start) : decoded.substring(start, slash));
            if (slash < 0) {
                return;
            }
            start = slash + 1;
        }
    }

    private static void addChecked(List<String> into, String segment) {
        if (segment.isEmpty()) {
            throw ApiException.badRequest("The upstream path must not contain empty segments");
        }
        if (segment.equals(".") || segment.equals("..")) {
            throw ApiException.badRequest("The upstream path must not contain '.' or '..' segments");
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '\\') {
                throw ApiException.badRequest("The upstream path must not contain backslashes");
            }
            if (c == '%') {
                throw ApiException.badRequest("The upstream path must be percent-encoded once, not twice");
            }
            if (c == ';') {
                throw ApiException.badRequest("The upstream path must not contain ';' path parameters");
            }
            if (c < 0x20 || c == 0x7F) {
                throw ApiException.badRequest("The upstream path must not contain control characters");
            }
        }
        into.add(segment);
    }

    /** Percent-decodes once, strictly: every {@code %} starts two hex digits, the bytes are UTF-8, {@code +} is a plus. */
    private static String decodeOnce(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        byte[] bytes = new byte[raw.length() * 3];
        int length = 0;
        int i = 0;
        while (i < raw.length()) {
            if (raw.charAt(i) == '%') {
                int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int low = high < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
                if (low < 0) {
                    throw ApiException.badRequest("The upstream path is not validly percent-encoded");
                }
                bytes[length++] = (byte) (high << 4 | low);
                i += 3;
            } else {
                int next = raw.indexOf('%', i);
                byte[] run = raw.substring(i, next < 0 ? raw.length() : next).getBytes(StandardCharsets.UTF_8);
                System.arraycopy(run, 0, bytes, length, run.length);
                length += run.length;
                i = next < 0 ? raw.length() : next;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("The upstream path is not validly percent-encoded UTF-8");
        }
    }

    private static String encode(List<String> segments, boolean trailingSlash) {
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            path.append('/');
            for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
                int unsigned = b & 0xFF;
                if (unsigned < 128 && LITERAL[unsigned]) {
                    path.append((char) unsigned);
                } else {
                    path.append('%').append(HEX[unsigned >> 4]).append(HEX[unsigned & 0xF]);
                }
            }
        }
        if (path.isEmpty() || trailingSlash) {
            path.append('/');
        }
        return path.toString();
    }

    /**
     * Refuses a {@code _method} query parameter: Rails, Laravel, Express' method-override and others run
     * {@code POST ?_method=DELETE} as a DELETE, which the proxy would have classified as a POST. Names
     * are compared after one percent-decoding, case-insensitively; {@code ;} separates parameters too.
     */
    private static void refuseMethodParameter(String query) {
        if (query == null) {
            return;
        }
        int start = 0;
        while (start <= query.length()) {
            int end = start;
            int equals = -1;
            while (end < query.length() && query.charAt(end) != '&' && query.charAt(end) != ';') {
                if (equals < 0 && query.charAt(end) == '=') {
                    equals = end;
                }
                end++;
            }
            if (isMethodParameter(query, start, equals < 0 ? end : equals)) {
                throw ApiException.badRequest(
                        "The proxy does not accept a _method query parameter: send the request with the method itself");
            }
            start = end + 1;
        }
    }

    /**
     * Whether {@code text[start, end)}, decoded once, is {@code _method} in any case; also as PHP reads
     * a name (leading spaces or {@code +} dropped, a {@code .} read as {@code _}: {@code +.method}).
     */
    static boolean isMethodParameter(CharSequence text, int start, int end) {
        int matched = 0;
        int i = start;
        while (i < end) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < end) {
                int high = Character.digit(text.charAt(i + 1), 16);
                int low = Character.digit(text.charAt(i + 2), 16);
                if (high >= 0 && low >= 0) {
                    c = (char) (high << 4 | low);
                    i += 2;
                }
            }
            i++;
            if (matched == 0 && (c == ' ' || c == '+')) {
                continue;
            }
            if (matched == 0 && c == '.') {
                c = '_';
            }
            if (matched >= METHOD_PARAMETER.length() || Character.toLowerCase(c) != METHOD_PARAMETER.charAt(matched)) {
                return false;
            }
            matched++;
        }
        return matched == METHOD_PARAMETER.length();
    }
}
