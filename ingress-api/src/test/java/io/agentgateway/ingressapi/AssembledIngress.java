package io.agentgateway.ingressapi;

import io.agentgateway.ingresstestsupport.IngressUnderTest;
import org.springframework.boot.SpringApplication;

/** What this module's tests start: the whole ingress, assembled and started as production starts it. */
public final class AssembledIngress implements IngressUnderTest {
    @Override
    public SpringApplication application() {
        return IngressApplication.application();
    }
}
