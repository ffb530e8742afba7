package io.agentgateway.approvalexecutor;

import io.agentgateway.actiongate.heldcall.HeldCallRunner;
import io.agentgateway.schemas.HeldCallKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** Every {@link HeldCallRunner} bean, by the kind of call it runs; two for one kind is a wiring error. */
@Component
public class HeldCallRunners {
    private final Map<HeldCallKind, HeldCallRunner> byKind = new EnumMap<>(HeldCallKind.class);

    public HeldCallRunners(List<HeldCallRunner> runners) {
        for (HeldCallRunner runner : runners) {
            HeldCallRunner previous = byKind.putIfAbsent(runner.kind(), runner);
            if (previous != null) {
                throw new IllegalStateException("two runners for held calls of kind " + runner.kind().wire() + ": "
                        + previous.getClass().getName() + " and " + runner.getClass().getName());
            }
        }
    }

    public Optional<HeldCallRunner> forKind(HeldCallKind kind) {
        return Optional.ofNullable(kind == null ? null : byKind.get(kind));
    }
}
