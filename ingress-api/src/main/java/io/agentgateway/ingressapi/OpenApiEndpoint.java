package io.agentgateway.ingressapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.stereotype.Component;

/**
 * The HTTP API's OpenAPI 3.1 description on the management port ({@code /actuator/openapi}, YAML): the file kept in
 * {@code docs/openapi.yaml} and packaged with the ingress, which {@code OpenApiRoutesTest} holds against the routes.
 * On the management port rather than the API port: it describes every endpoint to whoever asks, and the API port
 * answers only what its callers need.
 */
@Component
@WebEndpoint(id = "openapi")
public class OpenApiEndpoint {
    static final String RESOURCE = "io/agentgateway/ingressapi/openapi.yaml";
    private final String description;

    public OpenApiEndpoint() {
        try (InputStream in = OpenApiEndpoint.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath (packaged from docs/openapi.yaml)");
            }
            this.description = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ReadOperation(produces = "application/yaml")
    public String openApi() {
        return description;
    }
}
