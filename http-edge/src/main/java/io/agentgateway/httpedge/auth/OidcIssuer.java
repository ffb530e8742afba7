package io.agentgateway.httpedge.auth;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import io.agentgateway.egress.EgressClients;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The organization's OpenID Connect provider ({@link OidcProperties}): its discovery document and its JWKS, fetched on
 * first use through the egress policy (checked on the configured URLs, and again on each resolved address when
 * connecting) and kept; a failed fetch is tried again by the next caller. Everything here blocks: call it off the
 * event loop ({@link JwtVerifier#mayBlock()} is true while an issuer is configured).
 *
 * <p>The discovery document must name the configured issuer exactly (OpenID Connect Discovery 1.0, 4.3), or nothing of
 * it is used.
 */
@Component
public class OidcIssuer {
    private static final Logger log = LoggerFactory.getLogger(OidcIssuer.class);
    private static final int MAX_DOCUMENT_BYTES = 256 * 1024;

    /** The endpoints of the discovery document the gateway uses. */
    public record Metadata(String issuer, URI authorizationEndpoint, URI tokenEndpoint, URI jwksUri, URI endSessionEndpoint) {}

    private final OidcProperties properties;
    private final EgressClients egress;
    private final WebClient client;
    private volatile Metadata metadata;
    private volatile JWKSource<SecurityContext> keys;

    @Autowired
    public OidcIssuer(OidcProperties properties, EgressClients egress, ReactorResourceFactory resources) {
        this.properties = properties;
        this.egress = egress;
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(resources,
                        http -> egress.apply(http).responseTimeout(properties.timeout())))
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_DOCUMENT_BYTES))
                .build();
    }

    public OidcProperties properties() {
        return properties;
    }

    public boolean configured() {
        return properties.configured();
    }

    /**
     * The provider's endpoints, fetched once.
     *
     * @throws IssuerUnavailableException when the provider cannot be read, answers nonsense, names another issuer or
     *         an endpoint the egress policy refuses
     */
    public Metadata metadata() {
        Metadata known = metadata;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (metadata == null) {
                metadata = discover();
            }
            return metadata;
        }
    }

    /** The provider's signing keys (its JWKS, kept and refreshed by nimbus as keys rotate). */
    public JWKSource<SecurityContext> keys() {
        JWKSource<SecurityContext> known = keys;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (keys == null) {
                try {
                    URL jwks = metadata().jwksUri().toURL();
                    keys = JWKSourceBuilder.<SecurityContext>create(jwks, new EgressRetriever()).build();
                } catch (MalformedURLException e) {
                    throw new IssuerUnavailableException("the provider's jwks_uri is not a URL");
                }
            }
            return keys;
        }
    }

    /**
     * Posts a form to the provider's token endpoint and returns the status and the parsed JSON body (empty when it is
     * no JSON object). Blocking.
     */
    public TokenResponse postToken(MultiValueMap<String, String> form) {
        URI endpoint = metadata().tokenEndpoint();
        try {
            return client.post().uri(endpoint)
                    // client_secret_basic (RFC 6749 2.3.1: both parts form-encoded first), the method every provider takes
                    .headers(headers -> headers.setBasicAuth(formEncoded(properties.clientId()),
                            formEncoded(properties.clientSecret() == null ? "" : properties.clientSecret())))
                    .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                    .accept(MediaType.APPLICATION_JSON)
                    .body(BodyInserters.fromFormData(new LinkedMultiValueMap<>(form)))
                    .exchangeToMono(response -> response.bodyToMono(byte[].class).defaultIfEmpty(new byte[0])
                            .map(bytes -> new TokenResponse(response.statusCode(), parsed(bytes))))
                    .timeout(properties.timeout())
                    .blockOptional(properties.timeout().plusSeconds(1))
                    .orElseThrow(() -> new IssuerUnavailableException("the token endpoint did not answer"));
        } catch (IssuerUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IssuerUnavailableException("the token endpoint could not be reached: " + e.getClass().getSimpleName());
        }
    }

    private static String formEncoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** What the token endpoint answered. */
    public record TokenResponse(HttpStatusCode status, Optional<JsonNode> body) {}

    private Metadata discover() {
        String issuer = properties.issuer();
        String url = (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer) + "/.well-known/openid-configuration";
        refuseByPolicy(url, "discovery URL");
        JsonNode document = get(URI.create(url)).map(GatewayJsonBytes::tree)
                .orElseThrow(() -> new IssuerUnavailableException("the discovery document is no JSON object"));
        if (!issuer.equals(document.path("issuer").asString(""))) {
            throw new IssuerUnavailableException("the discovery document names another issuer");
        }
        Metadata found = new Metadata(issuer, endpoint(document, "authorization_endpoint", true),
                endpoint(document, "token_endpoint", true), endpoint(document, "jwks_uri", true),
                endpoint(document, "end_session_endpoint", false));
        log.info("OpenID provider {}: discovery read", issuer);
        return found;
    }

    private URI endpoint(JsonNode document, String field, boolean required) {
        String value = document.path(field).isString() ? document.get(field).asString() : null;
        if (value == null || value.isBlank()) {
            if (required) {
                throw new IssuerUnavailableException("the discovery document has no " + field);
            }
            return null;
        }
        URI uri;
        try {
            uri = URI.create(value);
        } catch (IllegalArgumentException e) {
            throw new IssuerUnavailableException("the discovery document's " + field + " is not a URL");
        }
        if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme())) {
            throw new IssuerUnavailableException("the discovery document's " + field + " is not an http(s) URL");
        }
        refuseByPolicy(value, field);
        return uri;
    }

    private void refuseByPolicy(String url, String what) {
        egress.policy().refusalOfUrl(url).ifPresent(rule -> {
            throw new IssuerUnavailableException("the provider's " + what + " is refused by the egress policy: " + rule);
        });
    }

    private Optional<byte[]> get(URI uri) {
        try {
            return client.get().uri(uri).accept(MediaType.APPLICATION_JSON)
                    .exchangeToMono(response -> response.statusCode().is2xxSuccessful()
                            ? response.bodyToMono(byte[].class)
                            : response.releaseBody().then(Mono.error(new IssuerUnavailableException(
                                    uri.getPath() + " answered HTTP " + response.statusCode().value()))))
                    .timeout(properties.timeout())
                    .blockOptional(properties.timeout().plusSeconds(1));
        } catch (IssuerUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IssuerUnavailableException(uri.getPath() + " could not be read: " + e.getClass().getSimpleName());
        }
    }

    private static Optional<JsonNode> parsed(byte[] bytes) {
        return GatewayJsonBytes.object(bytes);
    }

    /** Nimbus's JWKS fetches, through the egress-checked client instead of the JDK's URL connection. */
    private final class EgressRetriever implements ResourceRetriever {
        @Override
        public Resource retrieveResource(URL url) throws IOException {
            try {
                byte[] body = get(URI.create(url.toString())).orElseThrow(() -> new IOException("empty JWKS answer"));
                return new Resource(new String(body, StandardCharsets.UTF_8), "application/json");
            } catch (IssuerUnavailableException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
    }

    /** JSON bytes to a tree, empty for anything that is not a JSON object. */
    static final class GatewayJsonBytes {
        private GatewayJsonBytes() {}

        static Optional<JsonNode> object(byte[] bytes) {
            try {
                JsonNode tree = GatewayJson.MAPPER.readTree(bytes);
                return tree != null && tree.isObject() ? Optional.of(tree) : Optional.empty();
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }

        static JsonNode tree(byte[] bytes) {
            return object(bytes).orElse(null);
        }
    }

    /** The provider could not be used: its outage, never the caller's fault (503, not 401). */
    public static class IssuerUnavailableException extends RuntimeException {
        public IssuerUnavailableException(String message) {
            super(message, null, false, false);
        }
    }

    Duration timeout() {
        return properties.timeout();
    }
}
