package io.agentgateway.decisioncore.core;

import java.util.UUID;

/**
 * Small checks shared by the handlers. Ids the read models key as uuid columns must be in canonical
 * lower-case form: the state compares them as strings, PostgreSQL as uuids, and the two must agree.
 */
public final class Validation {
    private Validation() {}

    public static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    public static boolean isUuid(String value) {
        if (blank(value)) {
            return false;
        }
        try {
            return UUID.fromString(value).toString().equals(value);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
