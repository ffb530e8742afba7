package io.agentgateway.schemas.call;

import io.agentgateway.schemas.HeldCallKind;

/**
 * A {@link HeldCall} as it travels in commands and events: its kind in clear (so that the stream and
 * the executor know what will run without opening it), its JSON sealed by SecretBox, and the digest
 * that binds the approval to it.
 *
 * @param sealed  {@code SecretBox.seal} of the held call's JSON
 * @param digest  {@link CallDigest} of tool, action and the held call's JSON: recomputed over the
 *                opened call before it runs, and the call is refused on a mismatch
 */
public record SealedHeldCall(HeldCallKind kind, String sealed, String digest) {}
