package io.agentgateway.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a host name becomes addresses when the gateway connects out: fixed entries first
 * ({@code gateway.egress.hosts}, {@code name=address} like a hosts file; tests give names that resolve to
 * refused addresses this way, with no DNS server), then the system's resolver. Every address found still
 * passes the policy: an entry grants nothing.
 */
public final class NameLookup {
    private final Map<String, List<InetAddress>> fixed;

    private NameLookup(Map<String, List<InetAddress>> fixed) {
        this.fixed = Map.copyOf(fixed);
    }

    /**
     * @param entries {@code name=address} entries (one address each; a name given twice gets both)
     * @throws IllegalArgumentException naming an entry that is not a name and an address literal
     */
    public static NameLookup of(List<String> entries) {
        Map<String, List<InetAddress>> fixed = new LinkedHashMap<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            if (entry == null || entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            String name = eq < 0 ? "" : EgressPolicy.normalizeName(entry.substring(0, eq).strip());
            String value = eq < 0 ? "" : entry.substring(eq + 1).strip();
            var literal = value.isEmpty() ? null : EgressPolicy.literal(value);
            if (name.isEmpty() || literal == null) {
                throw new IllegalArgumentException("gateway.egress.hosts entry '" + entry + "' must be name=address");
            }
            fixed.computeIfAbsent(name, n -> new ArrayList<>()).add(literal.toInetAddress());
        }
        return new NameLookup(fixed);
    }

    /** Blocking: the system resolver may ask a DNS server. */
    public List<InetAddress> lookup(String host) throws UnknownHostException {
        List<InetAddress> entry = fixed.get(EgressPolicy.normalizeName(host));
        if (entry != null) {
            return entry;
        }
        return List.of(InetAddress.getAllByName(host.toLowerCase(Locale.ROOT)));
    }
}
