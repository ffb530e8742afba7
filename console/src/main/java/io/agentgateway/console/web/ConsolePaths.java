package io.agentgateway.console.web;

import java.util.regex.Pattern;

/** The paths the console serves, and the one rule for a {@code next} parameter (where to go after signing in). */
public final class ConsolePaths {
    public static final String SIGN_IN = "/signin";
    private static final Pattern LOCAL_PATH = Pattern.compile("/[A-Za-z0-9/_\\-.?=&%:+~]{0,1999}");

    private ConsolePaths() {}

    /** Whether a request path is the console's (everything but the API's {@code /admin/} and {@code /functions/}). */
    public static boolean isConsole(String path) {
        return !path.startsWith("/admin/") && !path.startsWith("/functions/") && !path.startsWith("/actuator");
    }

    /**
     * A place on this site to return to: a path starting with one {@code /} (never {@code //} or {@code /\}, which a
     * browser takes for another host), of plain characters; anything else is {@code /}.
     */
    public static String safeReturn(String next) {
        if (next == null || !LOCAL_PATH.matcher(next).matches() || next.startsWith("//") || next.contains("/\\")
                || next.startsWith("/signin") || next.startsWith("/signout")) {
            return "/";
        }
        return next;
    }
}
