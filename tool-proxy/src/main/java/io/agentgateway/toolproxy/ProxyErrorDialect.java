package io.agentgateway.toolproxy;

import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.web.ErrorDialect;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every error of a tool's proxy path (401, 400, 409, 413, 429, 502, 503, 504, …) in that tool's error dialect
 * ({@link ProxyDialect}), as the blocked and held answers are: octokit then throws a {@code RequestError} whose
 * message is the gateway's text, the Linear SDK the error class of {@link ProxyDialect#linearType}. The body keeps
 * the gateway's {@code ok:false, error, correlationId}; {@code code} is the status's name ({@code UNAUTHORIZED},
 * {@code CONFLICT}, …). A path naming no proxied tool keeps the gateway's own body.
 */
@Component
class ProxyErrorDialect implements ErrorDialect {

    @Override
    public Optional<Object> body(ServerWebExchange exchange, HttpStatus status, String error, String correlationId) {
        return body(exchange.getRequest().getURI().getRawPath(), status, error, correlationId).map(Object.class::cast);
    }

    static Optional<ObjectNode> body(String path, HttpStatus status, String error, String correlationId) {
        if (path == null || !path.startsWith(GatewayProxyHandler.PREFIX)) {
            return Optional.empty();
        }
        String rest = path.substring(GatewayProxyHandler.PREFIX.length());
        int slash = rest.indexOf('/');
        Optional<Tool> tool = Tool.parse(slash < 0 ? rest : rest.substring(0, slash))
                .filter(named -> ToolProfiles.of(named).proxied());
        return tool.map(proxied -> {
            ObjectNode gateway = IngressJson.RESPONSES.createObjectNode();
            gateway.put("ok", false);
            gateway.put("error", error);
            gateway.put("correlationId", correlationId);
            return ProxyDialect.of(proxied).error(error, status.name(), ProxyDialect.linearType(status), null, gateway);
        });
    }
}
