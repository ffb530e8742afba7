package io.agentgateway.adminapi.api;

import io.agentgateway.adminapi.policies.CandidatePolicies;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.Policy;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The admin API's rules for inputs and its JSON, for a caller outside HTTP (the launcher's {@code backtest}
 * and {@code export} commands), so that a file or an id the command line takes is one the API would take,
 * with the API's own texts.
 */
public final class AdminApiRules {
    private AdminApiRules() {}

    /** The lower-case canonical form of a uuid (the API's strict reading), or empty when {@code value} is none. */
    public static Optional<String> canonicalUuid(String value) {
        return Uuids.canonical(value);
    }

    /**
     * A candidate policy set for a back-test from a file's bytes: a JSON array of policy bodies as
     * {@code POST /admin/v1/workspaces/{id}/policies} takes them, or {@code {"policies": [...]}}; read strictly
     * (a duplicated key or trailing garbage is refused, as in a request body).
     *
     * @param source names the file in the messages
     * @throws InvalidInputException naming {@code source} and the element and rule it breaks
     */
    public static List<Policy> candidatePolicies(byte[] json, String source) {
        JsonNode policies;
        try {
            policies = IngressJson.REQUESTS.readTree(json);
        } catch (JacksonException e) {
            throw new InvalidInputException(source + " is not valid JSON" + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
        if (policies instanceof ObjectNode object) {
            for (String name : object.propertyNames()) {
                if (!name.equals("policies")) {
                    throw new InvalidInputException(source + ": unknown field: " + name);
                }
            }
            policies = object.get("policies");
        }
        try {
            return CandidatePolicies.parse(policies);
        } catch (ApiException e) {
            throw new InvalidInputException(source + ": " + e.getMessage());
        }
    }

    /** {@code value} as the API writes a response body (nulls written), indented for a terminal. */
    public static String responseJson(Object value) {
        return IngressJson.RESPONSES.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    }

    /** An input the API would refuse with 400; the message says why. */
    public static final class InvalidInputException extends IllegalArgumentException {
        public InvalidInputException(String message) {
            super(message);
        }
    }
}
