package io.agentgateway.console.admin;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.httpedge.web.ApiException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;

/**
 * The errors of a submitted form, each at its field: the admin API's own texts ({@link ApiException}, whose
 * {@code field()} says which body field; the decision stream's refusals are addressed by the services the same way),
 * mapped to the form's inputs by {@code aliases} (API field → input); an error about no field of this form is the
 * form's own. A failure that is not about the input (the decision service unavailable, the database down) is no form
 * error: the console's error page says it.
 *
 * @param status the API's status (400, or 404/409/429 for what the stream refused), the page's status
 */
public record FormErrors(Map<String, String> fields, String general, HttpStatus status) {
    private static final Pattern CONDITION_POSITION = Pattern.compile("condition: line (\\d+), column (\\d+): (.*)", Pattern.DOTALL);

    public static FormErrors none() {
        return new FormErrors(Map.of(), null, HttpStatus.OK);
    }

    public static FormErrors general(HttpStatus status, String message) {
        return new FormErrors(Map.of(), message, status);
    }

    public static FormErrors field(String field, String message) {
        return new FormErrors(Map.of(field, message), null, HttpStatus.BAD_REQUEST);
    }

    /** The failure as form errors, when it is about the input; empty otherwise. */
    public static Optional<FormErrors> of(Throwable failure, Map<String, String> aliases) {
        if (failure instanceof ConsoleException refused && refused.status().is4xxClientError()
                && refused.status() != HttpStatus.UNAUTHORIZED && refused.status() != HttpStatus.FORBIDDEN) {
            return Optional.of(general(refused.status(), refused.getMessage()));
        }
        if (!(failure instanceof ApiException api)) {
            return Optional.empty();
        }
        HttpStatus status = api.status();
        // 403: the decision stream refused the change for the user's role (it decides in log order, whatever the page showed)
        if (status != HttpStatus.BAD_REQUEST && status != HttpStatus.CONFLICT && status != HttpStatus.NOT_FOUND
                && status != HttpStatus.TOO_MANY_REQUESTS && status != HttpStatus.FORBIDDEN) {
            return Optional.empty();
        }
        String input = api.field() == null ? null : aliases.getOrDefault(api.field(), null);
        if (input == null) {
            return Optional.of(general(status, api.getMessage()));
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(input, api.getMessage());
        return Optional.of(new FormErrors(fields, null, status));
    }

    public boolean any() {
        return general != null || !fields.isEmpty();
    }

    public boolean has(String field) {
        return fields.containsKey(field);
    }

    public String get(String field) {
        return fields.get(field);
    }

    /** The same errors plus one more at {@code field}. */
    public FormErrors with(String field, String message) {
        Map<String, String> more = new LinkedHashMap<>(fields);
        more.put(field, message);
        return new FormErrors(more, general, status == HttpStatus.OK ? HttpStatus.BAD_REQUEST : status);
    }

    /**
     * Where a condition does not compile, from the API's text ({@code condition: line 1, column 6: ...}): the line and
     * column, the problem, and the line of the condition with a caret under the column. Empty for any other text.
     */
    public static Optional<ConditionProblem> conditionProblem(String message, String condition) {
        if (message == null) {
            return Optional.empty();
        }
        Matcher matcher = CONDITION_POSITION.matcher(message);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        int line = Integer.parseInt(matcher.group(1));
        int column = Integer.parseInt(matcher.group(2));
        String[] lines = condition == null ? new String[0] : condition.split("\n", -1);
        String source = line >= 1 && line <= lines.length ? lines[line - 1].replace("\r", "") : "";
        String caret = " ".repeat(Math.max(0, Math.min(column - 1, source.length()))) + "^";
        return Optional.of(new ConditionProblem(line, column, matcher.group(3), source, caret));
    }

    /** A condition's compile error at its position (see {@link #conditionProblem}). */
    public record ConditionProblem(int line, int column, String message, String sourceLine, String caret) {}
}
