package io.agentgateway.actiongate.heldcall;

import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Held calls sealed with {@code gateway.secrets.key}: entry points seal the call they hold before it
 * goes into a command; the executor opens it for its one run. Without a key nothing can be held (an
 * entry point answers 503 rather than put a call in the log in clear) and nothing can be run.
 */
@Component
public class HeldCallSeals {
    private static final Logger log = LoggerFactory.getLogger(HeldCallSeals.class);

    private final HeldCallSeal seal;

    public HeldCallSeals(SecretsProperties secrets) {
        this.seal = secrets.key() == null || secrets.key().isBlank()
                ? null
                : new HeldCallSeal(SecretBox.fromBase64Key(secrets.key()));
        if (seal == null) {
            log.warn("gateway.secrets.key is not set: calls cannot be held for approval nor run after it");
        }
    }

    /** For entry points: the call as it goes into EvaluateAction.heldCall. */
    public SealedHeldCall seal(Tool tool, String action, HeldCall call) {
        if (seal == null) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Secret storage is not configured");
        }
        return seal.seal(tool, action, call);
    }

    /** For the approval executor, which opens a held call for its one run; empty without a key. */
    public Optional<HeldCallSeal> opener() {
        return Optional.ofNullable(seal);
    }
}
