package io.agentgateway.actiongate.callview;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Takes secrets and credentials out of what reviewers are shown of a call. Two nets: by key name (a JSON
 * member, form field or {@code key=value} / {@code key: value} pair whose name says it holds a credential:
 * token, secret, password, authorization, api key, private key, client secret, cookie, ...) and by value (the
 * shapes credentials have wherever they appear: the gateway's own {@code agk_} keys, code host tokens
 * {@code ghp_…}/{@code github_pat_…}, chat tokens {@code xox…}, issue tracker keys {@code lin_api_…}, cloud
 * keys, JWTs, PEM blocks, bearer/basic credentials, passwords in URLs). What is taken out becomes
 * {@link #MARK}. It errs on the side of taking too much: a reviewer can always ask, a leaked token cannot be
 * taken back.
 */
public final class Redaction {
    public static final String MARK = "[redacted]";

    /** Parts of key names (lower case, letters and digits only) that say the value is a credential. */
    private static final List<String> SECRET_KEY_PARTS = List.of("token", "secret", "password", "passwd", "passphrase",
            "authorization", "apikey", "accesskey", "privatekey", "credential", "cookie", "sessionid", "jwt", "bearer",
            "signingkey", "encryptionkey");

    private static final List<Pattern> SECRET_VALUES = List.of(
            // PEM blocks (private keys above all), also when cut before their end line
            Pattern.compile("-----BEGIN [A-Z0-9 ]{1,64}-----[\\s\\S]*?(?:-----END [A-Z0-9 ]{1,64}-----|\\z)"),
            Pattern.compile("\\bagk_[A-Za-z0-9_\\-]{8,}"),
            Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{16,}"),
            Pattern.compile("\\bgithub_pat_[A-Za-z0-9_]{16,}"),
            Pattern.compile("\\bxox[abposrce]-[A-Za-z0-9\\-]{8,}"),
            Pattern.compile("\\bxapp-[A-Za-z0-9\\-]{8,}"),
            Pattern.compile("\\blin_(?:api|oauth)_[A-Za-z0-9]{16,}"),
            Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"),
            Pattern.compile("\\bAIza[0-9A-Za-z_\\-]{30,}"),
            Pattern.compile("\\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}"),
            Pattern.compile("\\bsk-[A-Za-z0-9_\\-]{20,}"),
            Pattern.compile("\\bglpat-[A-Za-z0-9_\\-]{16,}"),
            // JWTs (and other JWS/JWE compact forms)
            Pattern.compile("\\beyJ[A-Za-z0-9_\\-]{4,}\\.[A-Za-z0-9_\\-]{4,}\\.[A-Za-z0-9_\\-]*"));

    /** {@code Bearer …}, {@code token …}, {@code Basic …}: the credential after the scheme. */
    private static final Pattern SCHEME_CREDENTIAL =
            Pattern.compile("(?i)\\b(bearer|basic|token|digest)(\\s+)[A-Za-z0-9._~+/=\\-]{8,}");
    /** {@code scheme://user:password@host}: the password. */
    private static final Pattern URL_PASSWORD = Pattern.compile("(://[^/\\s:@]{1,256}:)[^@\\s/]{1,512}@");
    /** {@code name=value}, {@code name: value}, {@code "name": "value"} in text, for names that hold credentials. */
    private static final Pattern NAMED_VALUE = Pattern.compile(
            "(?i)([\"']?[A-Za-z0-9_.\\-]{0,64}(?:token|secret|password|passwd|passphrase|authorization|api[_\\-]?key|access[_\\-]?key"
                    + "|private[_\\-]?key|credential|cookie|session[_\\-]?id)[A-Za-z0-9_.\\-]{0,64}[\"']?\\s{0,8}[=:]\\s{0,8})"
                    + "([\"']?)(?!\\[redacted\\])[^\\s&\"',;}]+");

    /** Before a text is searched it is cut to this many characters, at a separator (a credential has none). */
    private final int maxChars;
    private boolean redacted;
    private boolean cut;

    /** Texts searched whole (tests, small inputs). */
    public Redaction() {
        this(Integer.MAX_VALUE);
    }

    /**
     * @param maxChars texts longer than this are cut first (at the last separator before it), so the search costs
     *                 what is shown, not what was sent: pass a few times the bound the caller cuts to afterwards
     */
    public Redaction(int maxChars) {
        this.maxChars = maxChars;
    }

    /** Whether anything was taken out since this instance was made. */
    public boolean redactedAny() {
        return redacted;
    }

    /** Whether a text was cut before it was searched. */
    public boolean cutAny() {
        return cut;
    }

    /** Whether a key name says its value is a credential. */
    public static boolean secretKey(String name) {
        if (name == null) {
            return false;
        }
        String normalized = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        return SECRET_KEY_PARTS.stream().anyMatch(normalized::contains);
    }

    /** Text with every value that looks like a credential replaced. */
    public String text(String value) {
        if (value == null || value.isEmpty()) {
            return value;
        }
        String result = value.length() <= maxChars ? value : cutAtSeparator(value);
        for (Pattern pattern : SECRET_VALUES) {
            result = replaceAll(pattern, result, m -> MARK);
        }
        result = replaceAll(SCHEME_CREDENTIAL, result, m -> m.group(1) + m.group(2) + MARK);
        result = replaceAll(URL_PASSWORD, result, m -> m.group(1) + MARK + "@");
        result = replaceAll(NAMED_VALUE, result, m -> m.group(1) + m.group(2) + MARK);
        return result;
    }

    /** A copy of a JSON value with credential members (by name) and credential-looking strings (by value) replaced. */
    public JsonNode json(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> member : value.properties()) {
                if (secretKey(member.getKey()) && !member.getValue().isNull()) {
                    redacted = true;
                    copy.put(member.getKey(), MARK);
                } else {
                    copy.set(member.getKey(), json(member.getValue()));
                }
            }
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(item -> copy.add(json(item)));
            return copy;
        }
        if (value.isString()) {
            return JsonNodeFactory.instance.stringNode(text(value.asString()));
        }
        return value;
    }

    /**
     * The text cut to {@code maxChars}, then back to its last separator (whitespace, quote, {@code , ; & = :}) within
     * 512 characters, so that no credential is left cut in half (and so unrecognizable) at the end.
     */
    private String cutAtSeparator(String value) {
        cut = true;
        int end = maxChars;
        for (int i = maxChars - 1; i >= Math.max(0, maxChars - 512); i--) {
            char c = value.charAt(i);
            if (Character.isWhitespace(c) || "\"',;&=:".indexOf(c) >= 0) {
                return value.substring(0, i + 1);
            }
        }
        // no separator near the end: drop the last stretch rather than show part of what may be a credential
        redacted = true;
        return value.substring(0, Math.max(0, end - 512)) + MARK;
    }

    private String replaceAll(Pattern pattern, String input, Function<Matcher, String> replacement) {
        Matcher matcher = pattern.matcher(input);
        if (!matcher.find()) {
            return input;
        }
        redacted = true;
        StringBuilder out = new StringBuilder(input.length());
        do {
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement.apply(matcher)));
        } while (matcher.find());
        matcher.appendTail(out);
        return out.toString();
    }
}
