package io.agentgateway.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.ConsoleIdentityProvider;
import io.agentgateway.schemas.GatewayJson;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Automation's side of the organization's identity: the authorization code flow with PKCE against the test's OpenID
 * provider, by plain HTTP (its development login form), as the console's client, to get the ID token and an access
 * token for the admin API resource, which the admin API must accept like its own tokens.
 */
final class OidcCodeFlow {
    record Tokens(String idToken, String accessToken) {}

    private static final Pattern FORM_ACTION = Pattern.compile("action=\"([^\"]+)\"");

    private OidcCodeFlow() {}

    static Tokens signIn(String gatewayBase, String login) throws Exception {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        String issuer = ConsoleIdentityProvider.issuer();
        String redirectUri = gatewayBase + "/signin/callback";
        String verifier = UUID.randomUUID() + "-" + UUID.randomUUID();
        String challenge = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        String authorize = issuer + "/auth?client_id=" + enc(ConsoleIdentityProvider.CLIENT_ID) + "&response_type=code"
                + "&redirect_uri=" + enc(redirectUri) + "&scope=" + enc("openid email") + "&state=s1&nonce=n1"
                + "&code_challenge=" + challenge + "&code_challenge_method=S256"
                + "&resource=" + enc(ConsoleIdentityProvider.ADMIN_API_RESOURCE);
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(authorize)).build(), HttpResponse.BodyHandlers.ofString());
        for (int step = 0; step < 10; step++) {
            String location = answer.headers().firstValue("Location").orElse(null);
            if (location != null && location.startsWith(redirectUri)) {
                String code = query(location, "code");
                return tokens(http, issuer, code, redirectUri, verifier);
            }
            if (location != null) {
                answer = http.send(HttpRequest.newBuilder(URI.create(issuer).resolve(location)).build(), HttpResponse.BodyHandlers.ofString());
                continue;
            }
            Matcher action = FORM_ACTION.matcher(answer.body());
            assertThat(action.find()).as("a login or consent form: %s", answer.body()).isTrue();
            String form = answer.body().contains("name=\"login\"")
                    ? "prompt=login&login=" + enc(login) + "&password=" + enc("any password") : "prompt=consent";
            answer = http.send(HttpRequest.newBuilder(URI.create(issuer).resolve(action.group(1).replace("&amp;", "&")))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        }
        throw new AssertionError("the provider did not redirect back with a code");
    }

    private static Tokens tokens(HttpClient http, String issuer, String code, String redirectUri, String verifier) throws Exception {
        String basic = Base64.getEncoder().encodeToString((enc(ConsoleIdentityProvider.CLIENT_ID) + ":"
                + enc(ConsoleIdentityProvider.CLIENT_SECRET)).getBytes(StandardCharsets.UTF_8));
        String form = "grant_type=authorization_code&code=" + enc(code) + "&redirect_uri=" + enc(redirectUri)
                + "&code_verifier=" + enc(verifier) + "&resource=" + enc(ConsoleIdentityProvider.ADMIN_API_RESOURCE);
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(issuer + "/token"))
                .header("Authorization", "Basic " + basic).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode body = GatewayJson.MAPPER.readTree(answer.body());
        return new Tokens(body.get("id_token").asString(), body.get("access_token").asString());
    }

    private static String query(String url, String name) {
        for (String part : URI.create(url).getRawQuery().split("&")) {
            if (part.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(part.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no " + name + " in " + url);
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
