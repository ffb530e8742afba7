package io.agentgateway.launcher.support;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The code host's and the issue tracker's OAuth token endpoints for the end-to-end tests: a real HTTP
 * server (the JDK's) at {@code /code-host/token} and {@code /issue-tracker/token} that records every
 * exchange (content type and form fields) and answers by the code it is given, so that concurrent tests
 * need no shared switch:
 * a code from {@link #grant} → 200 with the access token it was granted for (the code itself says
 * nothing about the token, as upstream: the callback URL carrying it may well be logged); {@code http-<status>} → that status with an error
 * object; {@code slow} → an answer only after {@link #SLOW}; {@code garbage} → 200 with HTML;
 * {@code error-200} → 200 with {@code {"error":"bad_verification_code"}} (the real code host's way).
 */
public final class OAuthTokenEndpoint implements AutoCloseable {
    public static final String CLIENT_SECRET = "client-secret-" + java.util.UUID.randomUUID();
    public static final long SLOW = 8_000;

    public record Exchange(String path, String contentType, String accept, Map<String, String> form) {}

    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private final Map<String, String> granted = new java.util.concurrent.ConcurrentHashMap<>();
    // a slow answer must not hold up the others
    private final LoopbackServer server = LoopbackServer.start("oauth-token-endpoint", true, this::answer);

    private OAuthTokenEndpoint() {}

    static OAuthTokenEndpoint start() {
        return new OAuthTokenEndpoint();
    }

    /** The gateway's OAuth settings pointing at this endpoint, both tools; the token timeout shorter than {@link #SLOW}. */
    Map<String, String> gatewayProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("gateway.oauth.token-timeout", "PT3S");
        for (String tool : List.of("code-host", "issue-tracker")) {
            props.put("gateway.oauth." + tool + ".authorize-url", baseUrl() + "/" + tool + "/authorize?prompt=consent");
            props.put("gateway.oauth." + tool + ".token-url", baseUrl() + "/" + tool + "/token");
            props.put("gateway.oauth." + tool + ".client-id", tool + "-client");
            props.put("gateway.oauth." + tool + ".client-secret", CLIENT_SECRET);
        }
        return props;
    }

    /** A fresh code that the endpoint exchanges for {@code token}. */
    public String grant(String token) {
        String code = "ok-" + java.util.UUID.randomUUID();
        granted.put(code, token);
        return code;
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    /** The exchanges of one code, in arrival order. */
    public List<Exchange> exchangesOf(String code) {
        return exchanges.stream().filter(e -> code.equals(e.form().get("code"))).toList();
    }

    /** A consent given at the authorize page: the state the gateway sent, and the token its code is exchanged for. */
    public record Consent(String state, String redirectUri, String token) {}

    private final List<Consent> consents = new CopyOnWriteArrayList<>();

    /** The consents given at the authorize page, in order (the console's browser flow). */
    public List<Consent> consents() {
        return List.copyOf(consents);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.endsWith("/authorize") || path.endsWith("/authorize/consent")) {
            authorize(exchange);
            return;
        }
        try (exchange) {
            Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchanges.add(new Exchange(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Accept"), form));
            String code = form.getOrDefault("code", "");
            if (granted.containsKey(code)) {
                send(exchange, 200, "application/json",
                        "{\"access_token\":\"" + granted.get(code) + "\",\"token_type\":\"bearer\",\"scope\":\"read\"}");
            } else if (code.startsWith("http-")) {
                send(exchange, Integer.parseInt(code.substring(5)), "application/json",
                        "{\"error\":\"invalid_grant\",\"error_description\":\"echoing " + code + "\"}");
            } else if (code.equals("slow")) {
                sleep();
                send(exchange, 200, "application/json", "{\"access_token\":\"too-late\"}");
            } else if (code.equals("error-200")) {
                send(exchange, 200, "application/json", "{\"error\":\"bad_verification_code\"}");
            } else {
                send(exchange, 200, "text/html", "<html>not a token</html>");
            }
        }
    }

    /**
     * The upstream's consent page, as a browser sees it: {@code GET <tool>/authorize?...} shows the app and an
     * "Authorize" button (a form to {@code authorize/consent}), which answers 302 to the {@code redirect_uri} with a new
     * code (exchanged at the token endpoint for a fresh {@code gho_}/{@code lin_} token) and the {@code state} as given;
     * "Cancel" answers with {@code error=access_denied}. Recorded in {@link #consents()}.
     */
    private void authorize(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = form(exchange.getRequestURI().getRawQuery() == null ? "" : exchange.getRequestURI().getRawQuery());
            String redirectUri = query.getOrDefault("redirect_uri", "");
            String state = query.getOrDefault("state", "");
            if (exchange.getRequestURI().getPath().endsWith("/authorize")) {
                String page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Authorize</title></head><body>"
                        + "<h1>Authorize " + escape(query.getOrDefault("client_id", "")) + "</h1>"
                        + "<p>Scopes: " + escape(query.getOrDefault("scope", "")) + "</p>"
                        + "<form method=\"get\" action=\"" + escape(exchange.getRequestURI().getPath()) + "/consent\">"
                        + "<input type=\"hidden\" name=\"redirect_uri\" value=\"" + escape(redirectUri) + "\">"
                        + "<input type=\"hidden\" name=\"state\" value=\"" + escape(state) + "\">"
                        + "<button id=\"authorize\" type=\"submit\" name=\"answer\" value=\"yes\">Authorize</button>"
                        + "<button id=\"cancel\" type=\"submit\" name=\"answer\" value=\"no\">Cancel</button>"
                        + "</form></body></html>";
                send(exchange, 200, "text/html; charset=utf-8", page);
                return;
            }
            String location;
            if ("yes".equals(query.get("answer"))) {
                String token = (exchange.getRequestURI().getPath().contains("code-host") ? "gho_" : "lin_oauth_")
                        + java.util.UUID.randomUUID().toString().replace("-", "");
                consents.add(new Consent(state, redirectUri, token));
                location = redirectUri + "?code=" + java.net.URLEncoder.encode(grant(token), StandardCharsets.UTF_8)
                        + "&state=" + java.net.URLEncoder.encode(state, StandardCharsets.UTF_8);
            } else {
                location = redirectUri + "?error=access_denied&state=" + java.net.URLEncoder.encode(state, StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Location", location);
            exchange.sendResponseHeaders(302, -1);
        }
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static void sleep() {
        try {
            Thread.sleep(SLOW);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        try {
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException gone) {
            // the gateway gave up waiting (the timeout case): nobody to answer
        }
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                form.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    @Override
    public void close() {
        server.close();
    }
}
