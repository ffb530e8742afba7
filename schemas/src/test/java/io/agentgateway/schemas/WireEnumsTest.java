package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every enum of the contract: lower-case wire names, parse(wire()) is the identity, unknown is empty. */
class WireEnumsTest {
    static final List<Class<?>> ENUMS = List.of(
            ActionSource.class, ActorKind.class, Decision.class, KillSwitchAction.class, McpAuthType.class,
            McpTransport.class, ReplyStatus.class, RiskClassification.class, RiskLevel.class, Role.class, Scope.class,
            SecretChange.class, Tool.class, ReviewVerdict.class, ExecutionOutcome.class, HeldCallKind.class,
            AgentIdentity.class);

    static Stream<Class<?>> enums() {
        return ENUMS.stream();
    }

    @Test
    void theListCoversEveryEnumOnTheWire() {
        assertThat(ENUMS).containsExactlyInAnyOrderElementsOf(WireTypes.enums());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("enums")
    void parseOfWireIsTheConstant(Class<?> type) {
        for (Object constant : type.getEnumConstants()) {
            assertThat(parse(type, wire(constant))).contains(constant);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("enums")
    void wireIsTheLowerCaseNameAndTheJsonForm(Class<?> type) {
        for (Object constant : type.getEnumConstants()) {
            String wire = wire(constant);
            assertThat(wire).isEqualTo(((Enum<?>) constant).name().toLowerCase(Locale.ROOT));
            assertThat(GatewayJson.MAPPER.writeValueAsString(constant)).isEqualTo("\"" + wire + "\"");
            assertThat(GatewayJson.MAPPER.readValue("\"" + wire + "\"", type)).isEqualTo(constant);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("enums")
    void parseOfUnknownOrNullIsEmpty(Class<?> type) {
        assertThat(parse(type, null)).isEmpty();
        assertThat(parse(type, "")).isEmpty();
        assertThat(parse(type, "no_such_value")).isEmpty();
        // the Java name is not the wire name: callers must not accept it
        Enum<?> first = (Enum<?>) type.getEnumConstants()[0];
        assertThat(parse(type, first.name().toUpperCase(Locale.ROOT))).isEmpty();
        assertThat(parse(type, " " + wire(first))).isEmpty();
    }

    @Test
    void riskLevelsAreOrderedBySeverity() {
        assertThat(Arrays.stream(RiskLevel.values()).map(RiskLevel::wire)).containsExactly("low", "medium", "high", "critical");
    }

    private static String wire(Object constant) {
        return (String) invoke(method(((Enum<?>) constant).getDeclaringClass(), "wire"), constant);
    }

    @SuppressWarnings("unchecked")
    private static Optional<Object> parse(Class<?> type, String wire) {
        return (Optional<Object>) invoke(method(type, "parse", String.class), null, wire);
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(type.getSimpleName() + " must declare " + name + " like every contract enum", e);
        }
    }

    private static Object invoke(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
