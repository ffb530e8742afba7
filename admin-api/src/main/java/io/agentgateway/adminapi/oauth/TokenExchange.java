package io.agentgateway.adminapi.oauth;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.egress.EgressRefusedException;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.secret.PlainSecret;
import io.netty.handler.timeout.ReadTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Exchanges an authorization code for an access token at the tool's token URL (RFC 6749 4.1.3): a
 * form-encoded POST with the app's client credentials in the body (what both upstreams accept), asking
 * for JSON. Every failure is an {@link ApiException} whose text names the upstream and the HTTP status
 * or the upstream's own {@code error} code, never the body (it could echo the code or the secret):
 * 4xx/5xx/an error object/no token 502, no answer in {@code gateway.oauth.token-timeout} 504.
 * Nothing here logs; the token leaves only as a {@link PlainSecret}.
 */
@Component
class TokenExchange {
    private static final int MAX_RESPONSE_BYTES = 64 * 1024;
    private static final String ERROR_CODE = "[A-Za-z0-9_.-]{1,64}";

    private final WebClient client;
    private final Duration timeout;

    TokenExchange(ReactorResourceFactory resources, OAuthProperties properties, EgressClients egress) {
        this.timeout = properties.tokenTimeout();
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(resources,
                        // no retry: a code is single-use, a second POST of it could only fail or confuse
                        http -> egress.apply(http).disableRetry(true).responseTimeout(properties.tokenTimeout())))
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_RESPONSE_BYTES))
                .filter(egress.spans("oauth"))
                .build();
    }

    Mono<PlainSecret> exchange(OAuthTool tool, OAuthClientProperties app, String code, String redirectUri) {
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("grant_type", "authorization_code");
        form.add("code", code);
        form.add("redirect_uri", redirectUri);
        form.add("client_id", app.clientId());
        form.add("client_secret", app.clientSecret());
        return client.post()
                // a URI, not a template: the configured URL is sent as written
                .uri(URI.create(app.tokenUrl().strip()))
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .accept(MediaType.APPLICATION_JSON)
                .body(BodyInserters.fromFormData(form))
                .exchangeToMono(response -> tokenOf(tool, response))
                .timeout(timeout)
                .onErrorMap(TimeoutException.class, e -> new ApiException(HttpStatus.GATEWAY_TIMEOUT,
                        "The " + tool.displayName() + "'s token endpoint did not answer in time: nothing was stored"))
                .onErrorMap(e -> EgressRefusedException.in(e) != null, e -> new ApiException(HttpStatus.BAD_GATEWAY,
                        "The " + tool.displayName() + "'s token endpoint is refused by the gateway's egress policy"
                                + " (gateway.egress.allow): nothing was stored"))
                .onErrorMap(WebClientRequestException.class, e -> e.getCause() instanceof ReadTimeoutException
                        ? new ApiException(HttpStatus.GATEWAY_TIMEOUT,
                                "The " + tool.displayName() + "'s token endpoint did not answer in time: nothing was stored")
                        : new ApiException(HttpStatus.BAD_GATEWAY,
                                "The " + tool.displayName() + "'s token endpoint could not be reached: nothing was stored"))
                // anything else (a broken connection mid-answer): still the upstream's failure, never a 500
                .onErrorMap(e -> !(e instanceof ApiException), e -> new ApiException(HttpStatus.BAD_GATEWAY,
                        "The " + tool.displayName() + "'s token endpoint failed: nothing was stored"));
    }

    private Mono<PlainSecret> tokenOf(OAuthTool tool, ClientResponse response) {
        String prefix = "The " + tool.displayName() + "'s token endpoint ";
        if (!response.statusCode().is2xxSuccessful()) {
            int status = response.statusCode().value();
            return response.releaseBody().then(Mono.error(new ApiException(HttpStatus.BAD_GATEWAY,
                    prefix + "refused the code (HTTP " + status + "): nothing was stored")));
        }
        // parsed here rather than by a codec: some token endpoints label their JSON text/plain
        return response.bodyToMono(byte[].class)
                .onErrorMap(e -> garbage(prefix))
                .switchIfEmpty(Mono.error(() -> garbage(prefix)))
                .map(bytes -> token(prefix, parsed(prefix, bytes)));
    }

    private static JsonNode parsed(String prefix, byte[] bytes) {
        try {
            return GatewayJson.MAPPER.readTree(bytes);
        } catch (JacksonException e) {
            throw garbage(prefix);
        }
    }

    private static PlainSecret token(String prefix, JsonNode body) {
        if (!body.isObject()) {
            throw garbage(prefix);
        }
        // the code host answers 200 with {"error": "bad_verification_code", ...} for a bad code
        JsonNode error = body.get("error");
        if (error != null && !error.isNull()) {
            String code = error.isString() && error.asString().matches(ERROR_CODE) ? " (" + error.asString() + ")" : "";
            throw new ApiException(HttpStatus.BAD_GATEWAY, prefix + "refused the code" + code + ": nothing was stored");
        }
        JsonNode token = body.get("access_token");
        if (token == null || !token.isString() || token.asString().isBlank()) {
            throw garbage(prefix);
        }
        return PlainSecret.of(token.asString());
    }

    private static ApiException garbage(String prefix) {
        return new ApiException(HttpStatus.BAD_GATEWAY, prefix + "answered without an access token: nothing was stored");
    }
}
