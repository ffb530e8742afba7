package io.agentgateway.decisioncore.condition;

import io.agentgateway.classification.ToolProfile.TargetShape;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The {@code target} a condition reads: what the action acts on, normalized by the gateway the same way for every
 * entry point, in the decision core so that the stream, replay and back-test agree (docs/policies.md, "target").
 *
 * <p>Raw facts come from the entry point ({@link TargetFacts}: the proxy reads them from the request it forwards and
 * looks up what the request does not name). Where the entry point gave none, they are derived from the arguments of
 * an evaluate-action or a webhook by the documented shapes (a code host or issue tracker payload); an MCP call or a
 * proxied call to another tool has no target shape.
 *
 * <p>Normalized: every value in lower case (the code host resolves owners and repositories case-insensitively, and
 * a condition written in lower case then also holds for a path or branch sent in another case); a branch without
 * {@code refs/heads/}; a path percent-decoded once, without {@code .} segments, with {@code ..} applied, duplicate
 * and leading and trailing slashes removed. A fact not known is absent: a condition that reads it fails.
 */
public final class Targets {
    private static final String REFS_HEADS = "refs/heads/";

    private Targets() {}

    /** The normalized target of {@code input}: only the facts known, each normalized. */
    static Map<String, Object> of(ConditionInput input) {
        TargetFacts raw = raw(input);
        Map<String, Object> target = new LinkedHashMap<>();
        putLower(target, "owner", raw.owner());
        putLower(target, "repo", raw.repo());
        if (raw.branch() != null) {
            target.put("branch", normalizeBranch(raw.branch()));
        }
        if (raw.path() != null) {
            target.put("path", normalizePath(raw.path()));
        }
        putLower(target, "team", raw.team());
        putLower(target, "organization", raw.organization());
        if (raw.labels() != null) {
            List<Object> labels = new ArrayList<>(raw.labels().size());
            for (String label : raw.labels()) {
                if (label != null) {
                    labels.add(label.trim().toLowerCase(Locale.ROOT));
                }
            }
            target.put("labels", labels);
        }
        if (raw.owner() != null && raw.repo() != null) {
            target.put("repository", target.get("owner") + "/" + target.get("repo"));
        }
        return target;
    }

    /**
     * A branch as a condition compares it: {@code refs/heads/} removed (also repeated, and in any case), lower case,
     * surrounding whitespace dropped.
     */
    public static String normalizeBranch(String branch) {
        String value = branch.trim();
        while (value.regionMatches(true, 0, REFS_HEADS, 0, REFS_HEADS.length())) {
            value = value.substring(REFS_HEADS.length());
        }
        return value.toLowerCase(Locale.ROOT);
    }

    /**
     * A file path as a condition compares it, resolved the way the code host resolves it: percent-decoded once,
     * backslashes read as separators, {@code .} segments and empty segments (duplicate, leading and trailing
     * slashes) dropped, {@code ..} applied (never above the root), lower case. {@code .github/./workflows//x.yml},
     * {@code %2egithub/workflows/x.yml} and {@code .GITHUB/Workflows/x.yml} all read {@code .github/workflows/x.yml}.
     */
    public static String normalizePath(String path) {
        String decoded = percentDecodeOnce(path.trim()).replace('\\', '/');
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : decoded.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                segments.pollLast();
                continue;
            }
            segments.addLast(segment);
        }
        return String.join("/", segments).toLowerCase(Locale.ROOT);
    }

    private static void putLower(Map<String, Object> target, String key, String value) {
        if (value != null) {
            target.put(key, value.trim().toLowerCase(Locale.ROOT));
        }
    }

    /** The entry point's facts, completed from the arguments where the source has a shape. */
    private static TargetFacts raw(ConditionInput input) {
        TargetFacts given = input.facts().target() == null ? TargetFacts.NONE : input.facts().target();
        JsonNode args = input.facts().arguments();
        ActionSource source = input.source();
        if (source != ActionSource.EVALUATE && source != ActionSource.WEBHOOK) {
            return given;
        }
        TargetFacts derived = source == ActionSource.WEBHOOK ? fromWebhook(input.tool(), args) : fromPayload(args);
        String owner = first(given.owner(), derived.owner());
        String repo = first(given.repo(), derived.repo());
        if ((owner == null || repo == null) && input.resourceId() != null) {
            // a resource id of the form owner/repo (or owner/repo#128) names the repository
            String id = input.resourceId();
            int hash = id.indexOf('#');
            String repository = hash < 0 ? id : id.substring(0, hash);
            int slash = repository.indexOf('/');
            if (slash > 0 && slash < repository.length() - 1 && repository.indexOf('/', slash + 1) < 0) {
                owner = first(owner, repository.substring(0, slash));
                repo = first(repo, repository.substring(slash + 1));
            }
        }
        return new TargetFacts(owner, repo, first(given.branch(), derived.branch()), first(given.path(), derived.path()),
                first(given.team(), derived.team()), first(given.organization(), derived.organization()),
                given.labels() != null ? given.labels() : derived.labels());
    }

    /**
     * An evaluate-action payload: {@code owner}, {@code repo} (or {@code repository} as {@code owner/repo}), the
     * branch from {@code base} (a merge's target; a string or an object with {@code ref}), else {@code branch}, else
     * {@code ref}; {@code path}; {@code team} (or {@code teamId}), {@code organization} (or {@code organizationId});
     * {@code labels} (strings, or objects with {@code name}).
     */
    private static TargetFacts fromPayload(JsonNode args) {
        if (args == null || !args.isObject()) {
            return TargetFacts.NONE;
        }
        String owner = text(args.get("owner"));
        String repo = text(args.get("repo"));
        String repository = text(args.get("repository"));
        if (repository != null && repository.indexOf('/') > 0 && (owner == null || repo == null)) {
            owner = first(owner, repository.substring(0, repository.indexOf('/')));
            repo = first(repo, repository.substring(repository.indexOf('/') + 1));
        }
        JsonNode base = args.get("base");
        String branch = first(base != null && base.isObject() ? text(base.get("ref")) : text(base),
                first(text(args.get("branch")), text(args.get("ref"))));
        return new TargetFacts(owner, repo, branch, text(args.get("path")),
                first(text(args.get("team")), text(args.get("teamId"))),
                first(text(args.get("organization")), text(args.get("organizationId"))), labels(args.get("labels")));
    }

    /**
     * A webhook payload, by the sender's target shape. A repository (the code host): {@code repository.owner.login}, {@code repository.name}, the branch from
     * {@code pull_request.base.ref}, else {@code ref} (a push), labels of {@code pull_request} or {@code issue}.
     * A team (the issue tracker): {@code data.team.key} (or {@code data.teamId}), {@code organizationId}, {@code data.labels}.
     */
    private static TargetFacts fromWebhook(Tool tool, JsonNode payload) {
        if (payload == null || !payload.isObject()) {
            return TargetFacts.NONE;
        }
        TargetShape shape = ToolProfiles.of(tool).targetShape();
        if (shape == TargetShape.REPOSITORY) {
            JsonNode repository = payload.path("repository");
            JsonNode pull = payload.path("pull_request");
            String branch = first(text(pull.path("base").get("ref")), text(payload.get("ref")));
            List<String> labels = labels(pull.isObject() ? pull.get("labels") : payload.path("issue").get("labels"));
            return new TargetFacts(text(repository.path("owner").get("login")), text(repository.get("name")), branch, null,
                    null, null, labels);
        }
        if (shape != TargetShape.TEAM) {
            return TargetFacts.NONE;
        }
        JsonNode data = payload.path("data");
        JsonNode team = data.get("team");
        return new TargetFacts(null, null, null, null,
                first(team != null && team.isObject() ? text(team.get("key")) : null, text(data.get("teamId"))),
                text(payload.get("organizationId")), labels(data.get("labels")));
    }

    private static List<String> labels(JsonNode node) {
        if (node == null || !node.isArray()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (JsonNode label : node) {
            String name = label.isObject() ? text(label.get("name")) : text(label);
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    private static String text(JsonNode node) {
        return node != null && node.isString() ? node.stringValue() : null;
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    /** Percent-decodes once, leniently: a {@code %} not followed by two hex digits stays as it is. */
    private static String percentDecodeOnce(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        for (int i = 0; i < value.length(); ) {
            char c = value.charAt(i);
            if (c == '%' && i + 2 < value.length()
                    && Character.digit(value.charAt(i + 1), 16) >= 0 && Character.digit(value.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(value.charAt(i + 1), 16) << 4 | Character.digit(value.charAt(i + 2), 16));
                i += 3;
            } else {
                int codePoint = value.codePointAt(i);
                byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
                i += Character.charCount(codePoint);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
