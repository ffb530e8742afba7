package io.agentgateway.classification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A stable action string for a request no table row names: the resource words of its path followed
 * by the method ({@code repos.hooks.post}, {@code user.starred.delete}); safe methods are {@code read}.
 * Only lower-case word segments count: numbers, ids, mixed-case names and the names that follow
 * {@code repos} (owner, repository), {@code orgs}, {@code users}, ... are left out, so most endpoints
 * give one action string whatever they are called on, and a repository named {@code drop-in} does not
 * make a write look like a delete. A lower-case name elsewhere in a path stays in the string (a policy
 * glob such as {@code repos.collaborators.*} still matches it); a delete-like word there can only raise
 * the risk, never lower it. What follows {@code refs} or {@code matching-refs} is a ref name (a branch
 * such as {@code heads/main}, sent with its slash encoded or not) and adds no word.
 */
public final class PathTemplateActions {
    public static final String READ = "read";
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");
    /** Segments followed by a user-chosen name (one, or two for repos: owner and repository). */
    private static final Set<String> NAMED_ONCE = Set.of("orgs", "users", "enterprises", "gists", "teams", "apps");
    /** Segments after which the rest of the path is a name (a git ref, which may hold slashes). */
    private static final Set<String> NAMED_REST = Set.of("refs", "matching-refs");
    private static final Pattern RESOURCE_WORD = Pattern.compile("[a-z][a-z_\\-]{0,40}");
    private static final int MAX_WORDS = 5;

    private PathTemplateActions() {}

    /** @param method as on the request line, upper case */
    public static boolean isSafe(String method) {
        return SAFE.contains(method);
    }

    /** @param method as on the request line, upper case */
    public static String of(String method, List<String> segments) {
        if (isSafe(method)) {
            return READ;
        }
        List<String> words = new ArrayList<>();
        for (int i = 0; i < segments.size() && words.size() < MAX_WORDS; i++) {
            String segment = segments.get(i);
            if (RESOURCE_WORD.matcher(segment).matches()) {
                words.add(segment);
            }
            if (NAMED_REST.contains(segment)) {
                break;
            }
            if (segment.equals("repos") && i == 0) {
                i += 2;
            } else if (NAMED_ONCE.contains(segment)) {
                i += 1;
            }
        }
        if (words.isEmpty()) {
            words.add("root");
        }
        return String.join(".", words) + "." + method.toLowerCase(Locale.ROOT);
    }
}
