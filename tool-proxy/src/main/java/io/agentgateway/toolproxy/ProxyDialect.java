package io.agentgateway.toolproxy;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The error dialect of a proxied tool's API: how its SDK finds the message of a non-2xx answer.
 * <ul>
 *   <li>{@link #REST} (code host, chat, docs, internal_api): the code host's {@code {message,
 *       documentation_url}} (the latter only when {@code gateway.proxy.documentation-url} is set), which octokit
 *       turns into {@code RequestError.message} ({@code "<message> - <documentation_url>"}); without a {@code message} it says {@code Unknown error: {json}}. A chat API
 *       in the style of the gateway's own {@code {ok:false, error}} reads the gateway's fields beside.</li>
 *   <li>{@link #GRAPHQL} (issue tracker): {@code {data:null, errors:[{message, extensions}]}}. The Linear SDK
 *       picks its error class from {@code errors[0].extensions.type} ({@code "forbidden"} →
 *       {@code ForbiddenLinearError}; with none it is {@code UnknownLinearError} whatever the status) and its
 *       message from {@code extensions.userPresentableMessage} or {@code message}; the whole body stays
 *       reachable as {@code error.raw.response}.</li>
 * </ul>
 * The gateway's own fields ({@code ok:false, error, decision, …}) are at the top level as well (in the GraphQL
 * dialect {@code error} is {@code errors[0].message}, the whole text, which the Linear SDK then shows once), so a client that knows the gateway reads the
 * same fields whatever the tool.
 */
enum ProxyDialect {
    REST {
        @Override
        ObjectNode error(String message, String code, String type, String documentationUrl, ObjectNode gatewayFields) {
            ObjectNode body = IngressJson.RESPONSES.createObjectNode();
            body.put("message", message);
            if (documentationUrl != null) {
                body.put("documentation_url", documentationUrl);
            }
            body.setAll(gatewayFields);
            return body;
        }
    },
    GRAPHQL {
        @Override
        ObjectNode error(String message, String code, String type, String documentationUrl, ObjectNode gatewayFields) {
            ObjectNode body = IngressJson.RESPONSES.createObjectNode();
            body.putNull("data");
            ArrayNode errors = body.putArray("errors");
            ObjectNode error = errors.addObject();
            error.put("message", message);
            ObjectNode extensions = error.putObject("extensions");
            extensions.put("code", code);
            extensions.put("type", type);
            extensions.put("userPresentableMessage", message);
            extensions.put("userError", false);
            extensions.setAll(gatewayFields.deepCopy());
            extensions.remove("ok");
            body.setAll(gatewayFields);
            // the Linear SDK adds a top-level "error" to its message unless it is the same text: make it the same
            body.put("error", message);
            return body;
        }
    };

    /**
     * An error body in this dialect.
     *
     * @param code             a stable code for agent code to branch on ({@code GATEWAY_BLOCKED}, …)
     * @param type             the GraphQL dialect's {@code extensions.type}, which picks the Linear SDK's error class
     *                         ({@link #linearType})
     * @param documentationUrl where to read more (REST only), or null
     * @param gatewayFields    the gateway's own fields, kept at the top level (and in the GraphQL extensions)
     */
    abstract ObjectNode error(String message, String code, String type, String documentationUrl, ObjectNode gatewayFields);

    /**
     * The Linear SDK's error type for a status ({@code parseLinearError}: the type of the first GraphQL error picks
     * the class), so that its class says what happened: 401 {@code AuthenticationLinearError}, 403
     * {@code ForbiddenLinearError} (a block and a hold), 429 {@code RatelimitedLinearError} (which reads
     * {@code Retry-After}), a refused request {@code InvalidInputLinearError}, 500 {@code InternalLinearError},
     * an upstream or decision service that did not answer {@code NetworkLinearError}, else {@code OtherLinearError}.
     */
    static String linearType(HttpStatus status) {
        return switch (status) {
            case UNAUTHORIZED -> "authentication error";
            case FORBIDDEN -> "forbidden";
            case TOO_MANY_REQUESTS -> "ratelimited";
            case BAD_REQUEST, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, REQUEST_HEADER_FIELDS_TOO_LARGE,
                 URI_TOO_LONG -> "invalid input";
            case INTERNAL_SERVER_ERROR -> "internal error";
            case BAD_GATEWAY, SERVICE_UNAVAILABLE, GATEWAY_TIMEOUT -> "network error";
            default -> "other";
        };
    }

    /** The dialect of the tool's profile ({@link ToolProfile.Proxied#errorDialect()}). */
    static ProxyDialect of(Tool tool) {
        return switch (ProxyClassifier.proxied(tool).errorDialect()) {
            case REST -> REST;
            case GRAPHQL -> GRAPHQL;
        };
    }
}
