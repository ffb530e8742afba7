package io.agentgateway.egress;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.egress.*}: the operator's egress settings.
 *
 * @param allow  what loopback and private addresses the gateway may connect to: CIDRs ({@code 10.1.0.0/16}),
 *               addresses, host names or {@code *.domain}. Empty (the default of the services): public
 *               addresses only. Link-local and metadata addresses and the gateway's own listeners are
 *               refused whatever this says
 * @param hosts  fixed {@code name=address} entries looked up before DNS (a hosts file of the gateway's own);
 *               the addresses still pass the policy
 * @param hopId  the value of the hop marker header ({@value EgressPolicy#HOP_HEADER}) on every request the
 *               gateway sends; unset: a random id per process. Any value is refused on the way in
 */
@ConfigurationProperties("gateway.egress")
public record EgressProperties(@DefaultValue List<String> allow, @DefaultValue List<String> hosts, String hopId) {}
