package io.agentgateway.launcher.cli;

import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bootstrap}: the first operator, the first workspace and its owner, on a running gateway that is
 * not the embedded default (docs/operating-a-cluster.md, "Bootstrap"). Signs an operator JWT with the
 * deployment's HS256 secret ({@code GATEWAY_AUTH_JWT_HS256SECRET}), checks that the ingress knows that
 * operator ({@code GATEWAY_AUTH_OPERATORS}), creates the workspace through the admin API with its owner,
 * has the owner issue an agent API key, and prints the operator's and the owner's JWTs and the key once.
 * Refuses (exit 3) when workspaces exist already, unless {@code --force}.
 *
 * <p>Exit codes: 0 printed; 1 the gateway refused or could not be reached (one line on stderr); 2 bad
 * arguments; 3 already bootstrapped.
 */
public final class BootstrapCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int ALREADY = 3;
    static final Duration TOKEN_VALIDITY = Duration.ofDays(30);

    static final String USAGE_TEXT = """
            usage: bootstrap [--url http://127.0.0.1:8080] [--operator gateway-operator] [--owner owner]
                             [--owner-email owner@example.com] [--workspace-name "First workspace"]
                             [--scopes evaluate,mcp,proxy] [--force]
              GATEWAY_AUTH_JWT_HS256SECRET: the deployment's HS256 secret (required: it signs the tokens)
              GATEWAY_URL: the ingress's base URL (or --url); GATEWAY_AUTH_OPERATORS: its first entry is the default --operator
            """;

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    public BootstrapCommand(PrintStream out, PrintStream err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public static int run(List<String> args) {
        return new BootstrapCommand(System.out, System.err, System.getenv()).execute(args);
    }

    record Options(String url, String operator, String owner, String ownerEmail, String workspaceName, List<String> scopes,
                   boolean force) {}

    public int execute(List<String> args) {
        if (OptionArguments.asksForHelp(args)) {
            out.print(USAGE_TEXT);
            return OK;
        }
        Options options;
        try {
            options = options(OptionArguments.parse(args,
                    Set.of("--url", "--operator", "--owner", "--owner-email", "--workspace-name", "--scopes"), Set.of("--force")));
        } catch (CommandLineError e) {
            err.println("bootstrap: " + e.getMessage());
            err.print(USAGE_TEXT);
            return USAGE;
        }
        String secret = env.get("GATEWAY_AUTH_JWT_HS256SECRET");
        if (secret == null || secret.isBlank()) {
            err.println("bootstrap: GATEWAY_AUTH_JWT_HS256SECRET is not set (the HS256 secret every ingress replica verifies"
                    + " user JWTs with)");
            return USAGE;
        }
        try {
            return bootstrap(options, secret);
        } catch (RuntimeException e) {
            err.println("bootstrap: " + String.valueOf(e.getMessage()).replace('\n', ' '));
            return FAILED;
        }
    }

    private int bootstrap(Options options, String secret) {
        GatewayHttpClient client = new GatewayHttpClient(options.url());
        String operatorJwt = DevJwts.sign(secret, options.operator(), null, TOKEN_VALIDITY);
        GatewayHttpClient.Response listed = client.send("GET", "/admin/v1/workspaces", operatorJwt, null);
        if (listed.status() == 401) {
            err.println("bootstrap: the gateway refused the operator's token: GATEWAY_AUTH_JWT_HS256SECRET here is not the"
                    + " ingress's");
            return FAILED;
        }
        if (listed.status() == 403) {
            err.println("bootstrap: the gateway does not know '" + options.operator() + "' as an operator: set"
                    + " GATEWAY_AUTH_OPERATORS=" + options.operator() + " on every ingress replica, restart them, run again");
            return FAILED;
        }
        if (listed.status() != 200) {
            err.println("bootstrap: listing workspaces answered " + listed.status() + " " + listed.rawBody());
            return FAILED;
        }
        int existing = listed.body().path("items").size();
        if (existing > 0 && !options.force()) {
            err.println("bootstrap: already bootstrapped: " + existing + " workspace(s) exist; --force creates another");
            return ALREADY;
        }
        String workspaceId = WorkspaceBootstrap.createWorkspace(client, operatorJwt, options.workspaceName(), options.owner(),
                options.ownerEmail());
        String ownerJwt = DevJwts.sign(secret, options.owner(), options.ownerEmail(), TOKEN_VALIDITY);
        GatewayHttpClient.Response key = client.send("POST", "/admin/v1/workspaces/" + workspaceId + "/api-keys", ownerJwt,
                Map.of("name", options.workspaceName() + " agent", "scopes", options.scopes()));
        if (key.status() != 201) {
            err.println("bootstrap: workspace " + workspaceId + " created, but the API key was not issued: " + key.status()
                    + " " + key.rawBody());
            return FAILED;
        }
        out.println();
        out.println("=== Gateway bootstrapped (shown once; save these) ===");
        out.println("Gateway:        " + options.url());
        out.println("Operator JWT:   " + operatorJwt + "   (user " + options.operator() + ", valid "
                + TOKEN_VALIDITY.toDays() + " days; creates and lists workspaces)");
        out.println("Workspace id:   " + workspaceId + "   (" + options.workspaceName() + ")");
        out.println("Owner JWT:      " + ownerJwt + "   (user " + options.owner() + ", valid " + TOKEN_VALIDITY.toDays()
                + " days)");
        out.println("Agent API key:  " + key.text("key") + "   (scopes " + String.join(", ", options.scopes()) + ")");
        out.println("=====================================================");
        return OK;
    }

    private Options options(OptionArguments arguments) {
        String operators = env.getOrDefault("GATEWAY_AUTH_OPERATORS", "");
        String firstOperator = Arrays.stream(operators.split(",")).map(String::trim).filter(s -> !s.isEmpty()).findFirst()
                .orElse("gateway-operator");
        List<String> scopes = new ArrayList<>(Arrays.stream(arguments.value("--scopes").orElse("evaluate,mcp,proxy").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList());
        if (scopes.isEmpty()) {
            throw new CommandLineError("--scopes needs at least one scope");
        }
        String url = arguments.value("--url").orElse(env.getOrDefault("GATEWAY_URL", "http://127.0.0.1:8080"));
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
            throw new CommandLineError("--url must be an http(s) URL");
        }
        return new Options(url.replaceAll("/+$", ""), arguments.value("--operator").orElse(firstOperator),
                arguments.value("--owner").orElse("owner"), arguments.value("--owner-email").orElse(null),
                arguments.value("--workspace-name").orElse("First workspace"), scopes, arguments.flag("--force"));
    }
}
