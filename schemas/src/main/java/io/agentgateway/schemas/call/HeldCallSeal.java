package io.agentgateway.schemas.call;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.Objects;
import tools.jackson.core.JacksonException;

/**
 * Seals a held call for the log and opens it again for the one run after approval. Opening checks
 * everything that binds the call to its approval: it must open with this key, be the kind it claims
 * to be, and hash (with the approval's tool and action) to the digest the approval was bound to.
 */
public final class HeldCallSeal {
    private final SecretBox box;

    public HeldCallSeal(SecretBox box) {
        this.box = Objects.requireNonNull(box, "box");
    }

    public SealedHeldCall seal(Tool tool, String action, HeldCall call) {
        String json = GatewayJson.MAPPER.writeValueAsString(call);
        return new SealedHeldCall(call.kind(), box.seal(json), digest(tool, action, call));
    }

    /**
     * @param expectedDigest the digest the approval was bound to (from the decision stream, not from
     *                       wherever the sealed text was read)
     * @throws IllegalArgumentException with a message fit for the approval's execution result, never
     *                                  quoting the call
     */
    public HeldCall open(SealedHeldCall sealed, Tool tool, String action, String expectedDigest) {
        if (sealed == null || sealed.sealed() == null) {
            throw new IllegalArgumentException("the approval holds no call");
        }
        HeldCall call;
        try {
            call = GatewayJson.MAPPER.readValue(box.open(sealed.sealed()), HeldCall.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the held call cannot be read");
        }
        if (call == null || call.kind() != sealed.kind()) {
            throw new IllegalArgumentException("the held call is not of the kind the approval names");
        }
        if (expectedDigest == null || !expectedDigest.equals(digest(tool, action, call))) {
            throw new IllegalArgumentException("the held call does not match the digest the approval was bound to");
        }
        return call;
    }

    public static String digest(Tool tool, String action, HeldCall call) {
        return CallDigest.of(tool, action, GatewayJson.MAPPER.valueToTree(call));
    }
}
