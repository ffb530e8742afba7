package io.agentgateway.actiongate.callview;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.CallView;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes the {@link CallView} of a call an entry point is about to seal, so that reviewers see what
 * will run without the sealed call ever being opened: made from the same request bytes that are sealed, every
 * text part redacted ({@link Redaction}) and then cut to {@code gateway.approvals.call-view.max-bytes} at a
 * UTF-8 boundary. The approval's {@code callDigest} (the sealed call's) is shown beside it.
 *
 * <ul>
 *   <li>HTTP: method, canonical path and query; a GraphQL request its operation name, document and variables;
 *       any other body an excerpt (compact JSON for JSON, else text, else a note of its media type and size),
 *       and a code host contents write the decoded {@code content} (the file that would be written).</li>
 *   <li>MCP {@code tools/call}: the tool and its arguments as the upstream gets them.</li>
 *   <li>evaluate-action: the payload the caller says it will act with (the caller makes the call itself).</li>
 * </ul>
 */
@Component
public class CallViews {
    /** Bodies above this are shown from their start only, read as text (never parsed whole for a view). */
    static final int MAX_PARSED_BYTES = 1 << 20;
    private static final String CONTENT_TYPE = "content-type";

    private final int maxBytes;

    public CallViews(CallViewProperties properties) {
        this.maxBytes = properties.maxBytes();
    }

    /** A builder bound to {@code maxBytes} (tests, tools). */
    public static CallViews bounded(int maxBytes) {
        return new CallViews(new CallViewProperties(maxBytes));
    }

    /**
     * @param graphQl whether the request is a GraphQL request (the issue tracker's, the code host's graphql path)
     * @param headers the headers to be forwarded (lower-case names), for the body's media type
     */
    public CallView http(Tool tool, String action, String method, String path, String query, boolean graphQl,
                         Map<String, List<String>> headers, byte[] body) {
        Parts parts = new Parts();
        String shownPath = parts.text(path);
        String shownQuery = parts.text(query);
        int bodyBytes = body == null ? 0 : body.length;
        if (bodyBytes == 0) {
            return parts.view(method, shownPath, shownQuery, null, null, null, null, null, null, null, null);
        }
        JsonNode json = bodyBytes <= MAX_PARSED_BYTES ? parseJson(body) : null;
        if (graphQl && json instanceof ObjectNode request && request.path("query").isString()) {
            JsonNode variables = request.get("variables");
            JsonNode operation = request.get("operationName");
            return parts.view(method, shownPath, shownQuery,
                    operation != null && operation.isString() ? parts.text(operation.asString()) : null,
                    parts.text(request.get("query").asString()),
                    variables == null || variables.isNull() ? null : parts.json(variables),
                    null, null, null, null, bodyBytes);
        }
        if (json != null) {
            String fileContent = null;
            if (base64FileContents(tool) && json instanceof ObjectNode write && write.path("content").isString()
                    && ("file.write".equals(action) || path.contains("/contents/"))) {
                // the contents API carries the file base64-encoded: show the file, not its encoding
                byte[] decoded = decodeBase64(write.path("content").asString());
                String text = decoded == null ? null : utf8(decoded);
                if (text != null) {
                    fileContent = parts.text(text);
                    ObjectNode shown = write.deepCopy();
                    shown.put("content", "<base64 of " + decoded.length + " bytes: see fileContent>");
                    json = shown;
                }
            }
            return parts.view(method, shownPath, shownQuery, null, null, null, null, null, parts.json(json), fileContent,
                    bodyBytes);
        }
        String text = utf8(bodyBytes <= MAX_PARSED_BYTES ? body : Arrays.copyOf(body, MAX_PARSED_BYTES));
        String excerpt = text != null ? parts.text(text)
                : "<" + bodyBytes + " bytes of " + mediaType(headers) + ", not shown>";
        if (text != null && bodyBytes > MAX_PARSED_BYTES) {
            parts.truncated = true;
        }
        return parts.view(method, shownPath, shownQuery, null, null, null, null, null, excerpt, null, bodyBytes);
    }

    /** Whether the tool's writes carry a file base64-encoded in {@code content} (its profile: the code host's contents API). */
    private static boolean base64FileContents(Tool tool) {
        return ToolProfiles.of(tool).proxy().map(ToolProfile.Proxied::base64FileContents).orElse(false);
    }

    /** An MCP {@code tools/call}: the tool and the arguments the upstream gets. */
    public CallView mcp(String toolName, JsonNode arguments) {
        Parts parts = new Parts();
        return parts.view(null, null, null, null, null, null, parts.text(toolName),
                arguments == null || arguments.isNull() ? null : parts.json(arguments), null, null, null);
    }

    /**
     * An MCP request held as it is ({@code resources/read}, {@code prompts/get}, decided as actions of their own): the
     * method and the params the upstream gets, redacted and cut like a body excerpt.
     */
    public CallView mcpRequest(String method, JsonNode params) {
        Parts parts = new Parts();
        return parts.view(parts.text(method), null, null, null, null, null, null, null,
                params == null || params.isNull() ? null : parts.json(params), null, null);
    }

    /** An evaluate-action payload: the call the caller says it will make itself. */
    public CallView payload(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return null;
        }
        Parts parts = new Parts();
        return parts.view(null, null, null, null, null, null, null, null, parts.json(payload), null, null);
    }

    private static JsonNode parseJson(byte[] body) {
        try {
            return IngressJson.REQUESTS.readTree(body);
        } catch (JacksonException | IllegalArgumentException e) {
            return null;
        }
    }

    private static byte[] decodeBase64(String value) {
        try {
            return Base64.getMimeDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The bytes as UTF-8 text, or null when they are not text (invalid UTF-8, or control characters). */
    static String utf8(byte[] bytes) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            return text.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\r' && c != '\t') ? null : text;
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String mediaType(Map<String, List<String>> headers) {
        List<String> types = headers == null ? null : headers.get(CONTENT_TYPE);
        String type = types == null || types.isEmpty() ? null : types.get(0);
        return type == null || type.isBlank() ? "an unnamed media type" : type.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9/+.;=\\- ]", "");
    }

    /** The parts of one view: each redacted and cut, remembering whether anything was. */
    private final class Parts {
        // a text is searched only as far as it can be shown (plus room for what redaction takes out)
        final Redaction redaction = new Redaction(4 * maxBytes);
        boolean truncated;

        String text(String value) {
            return cut(redaction.text(value));
        }

        String json(JsonNode value) {
            return cut(IngressJson.RESPONSES.writeValueAsString(redaction.json(value)));
        }

        String cut(String value) {
            if (value == null) {
                return null;
            }
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            if (utf8.length <= maxBytes) {
                return value;
            }
            truncated = true;
            int cut = maxBytes;
            // never split a UTF-8 sequence: step back over continuation bytes (10xxxxxx)
            while (cut > 0 && (utf8[cut] & 0xC0) == 0x80) {
                cut--;
            }
            return new String(utf8, 0, cut, StandardCharsets.UTF_8) + "…";
        }

        CallView view(String method, String path, String query, String operation, String document, String variables,
                      String mcpTool, String mcpArguments, String bodyExcerpt, String fileContent, Integer bodyBytes) {
            return new CallView(method, path, query, operation, document, variables, mcpTool, mcpArguments, bodyExcerpt,
                    fileContent, bodyBytes, truncated || redaction.cutAny(), redaction.redactedAny());
        }
    }
}
