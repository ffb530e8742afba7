package io.agentgateway.egress;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ports this process listens on (every module's HTTP and management servers, registered as they
 * start by {@link OwnListenerRecorder}), and the addresses that reach this machine. One registry per JVM:
 * the embedded default runs every module in one process, and the notifier must know the ingress's ports
 * as well as the ingress itself. A connection to a local address on one of these ports is a connection
 * to the gateway itself, refused whatever the allow-list says.
 */
public final class OwnListeners {
    /** The registry of this process. */
    public static final OwnListeners PROCESS = new OwnListeners();

    private final Map<Object, Set<Integer>> portsByOwner = new ConcurrentHashMap<>();
    private volatile Set<InetAddress> interfaceAddresses;

    OwnListeners() {}

    /** A server of {@code owner} (an application context) listens on {@code port}. */
    public void register(Object owner, int port) {
        if (port > 0) {
            portsByOwner.computeIfAbsent(owner, o -> ConcurrentHashMap.newKeySet()).add(port);
        }
    }

    /** {@code owner}'s servers stopped. */
    public void unregister(Object owner) {
        portsByOwner.remove(owner);
    }

    public boolean isOwnPort(int port) {
        for (Set<Integer> ports : portsByOwner.values()) {
            if (ports.contains(port)) {
                return true;
            }
        }
        return false;
    }

    /** Loopback, the unspecified address, or an address of one of this machine's interfaces. */
    public boolean isLocal(InetAddress address) {
        return address.isLoopbackAddress() || address.isAnyLocalAddress() || interfaceAddresses().contains(address);
    }

    private Set<InetAddress> interfaceAddresses() {
        Set<InetAddress> addresses = interfaceAddresses;
        if (addresses == null) {
            Set<InetAddress> found = new HashSet<>();
            try {
                for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    found.addAll(Collections.list(nic.getInetAddresses()));
                }
            } catch (SocketException | RuntimeException e) {
                // no interface list: loopback and the unspecified address are still known as local
            }
            // scope ids make equal addresses unequal: keep the plain ones too
            Set<InetAddress> plain = new HashSet<>();
            for (InetAddress address : found) {
                try {
                    plain.add(InetAddress.getByAddress(address.getAddress()));
                } catch (java.net.UnknownHostException impossible) {
                    // an address of 4 or 16 bytes always converts
                }
            }
            addresses = Set.copyOf(plain);
            interfaceAddresses = addresses;
        }
        return addresses;
    }
}
