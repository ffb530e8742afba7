package io.agentgateway.egress;

import java.net.ConnectException;

/**
 * A connection the egress policy refused before it was opened. A {@link ConnectException}, so every
 * caller that already tells "never reached the peer" from "may have reached it" (the notifier's
 * delivery ledger, the proxy's 502) treats it as never sent, which it was.
 */
public class EgressRefusedException extends ConnectException {
    private final String rule;

    public EgressRefusedException(String rule) {
        super("refused by the egress policy: " + rule);
        this.rule = rule;
    }

    /** What was refused and by which rule, e.g. {@code 169.254.169.254 is a cloud metadata address: never allowed}. */
    public String rule() {
        return rule;
    }

    /** The refusal anywhere in a failure's causes, or null. */
    public static EgressRefusedException in(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof EgressRefusedException refused) {
                return refused;
            }
        }
        return null;
    }
}
