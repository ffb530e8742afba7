package io.agentgateway.projector.consume;

import java.util.Locale;

/** Why an event was left out of the read models; the {@code reason} tag of the skipped-events counter. */
public enum SkipReason {
    /** Not an EventEnvelope at all (bytes that do not parse, an unknown event type, a tombstone). */
    UNREADABLE,
    /** Written by a newer contract than this projector understands. */
    UNSUPPORTED_SCHEMA_VERSION,
    /** Parsed, but lacks what its rows need (a missing field, an id that is not a UUID). */
    INVALID,
    /** PostgreSQL refused its rows (a constraint, such as a key hash already in use or an unknown workspace). */
    REJECTED_BY_DATABASE;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
