package io.agentgateway.egress;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.ArrayList;
import java.util.List;
import reactor.core.scheduler.Schedulers;

/**
 * The connect-time half of the egress policy, as the resolver of a Reactor Netty client: every address
 * a connection could go to passes {@link EgressPolicy} first, a literal one as well as every address a
 * name resolves to (one refused address refuses the name: a record set mixing a public and an internal
 * address gains nothing). The client then connects to the very addresses checked here, never resolving
 * again. Names are looked up with {@link NameLookup} on Reactor's bounded-elastic threads (the system
 * resolver blocks), never on an event loop.
 */
public final class EgressResolverGroup extends AddressResolverGroup<InetSocketAddress> {
    private final EgressPolicy policy;
    private final NameLookup lookup;

    public EgressResolverGroup(EgressPolicy policy, NameLookup lookup) {
        this.policy = policy;
        this.lookup = lookup;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new Resolver(executor);
    }

    /** Blocking: every address {@code host} resolves to, each checked; the refusal when one is refused. */
    public List<InetSocketAddress> resolveChecked(InetSocketAddress target) throws UnknownHostException, EgressRefusedException {
        int port = target.getPort();
        String host = target.getHostString();
        boolean literal = EgressPolicy.literal(host) != null;
        if (!literal) {
            policy.checkName(host, port);
        }
        List<InetAddress> addresses = target.isUnresolved() ? lookup.lookup(host) : List.of(target.getAddress());
        if (addresses.isEmpty()) {
            throw new UnknownHostException("no address");
        }
        List<InetSocketAddress> checked = new ArrayList<>(addresses.size());
        for (InetAddress address : addresses) {
            policy.checkAddress(literal ? null : host, address, port);
            checked.add(new InetSocketAddress(address, port));
        }
        return checked;
    }

    private final class Resolver implements AddressResolver<InetSocketAddress> {
        private final EventExecutor executor;

        Resolver(EventExecutor executor) {
            this.executor = executor;
        }

        @Override
        public boolean isSupported(SocketAddress address) {
            return address instanceof InetSocketAddress;
        }

        /** Never: a resolved (literal) address is checked too, so it must come through {@link #resolve}. */
        @Override
        public boolean isResolved(SocketAddress address) {
            if (!isSupported(address)) {
                throw new UnsupportedAddressTypeException();
            }
            return false;
        }

        @Override
        public Future<InetSocketAddress> resolve(SocketAddress address) {
            return resolve(address, executor.newPromise());
        }

        @Override
        public Future<InetSocketAddress> resolve(SocketAddress address, Promise<InetSocketAddress> promise) {
            run((InetSocketAddress) address, all -> promise.trySuccess(all.get(0)), promise::tryFailure);
            return promise;
        }

        @Override
        public Future<List<InetSocketAddress>> resolveAll(SocketAddress address) {
            return resolveAll(address, executor.newPromise());
        }

        @Override
        public Future<List<InetSocketAddress>> resolveAll(SocketAddress address, Promise<List<InetSocketAddress>> promise) {
            run((InetSocketAddress) address, promise::trySuccess, promise::tryFailure);
            return promise;
        }

        private void run(InetSocketAddress target, java.util.function.Consumer<List<InetSocketAddress>> done,
                         java.util.function.Consumer<Throwable> failed) {
            if (!target.isUnresolved()) {
                // nothing to look up: checked at once, on the caller's thread
                complete(target, done, failed);
                return;
            }
            Schedulers.boundedElastic().schedule(() -> complete(target, done, failed));
        }

        private void complete(InetSocketAddress target, java.util.function.Consumer<List<InetSocketAddress>> done,
                              java.util.function.Consumer<Throwable> failed) {
            try {
                done.accept(resolveChecked(target));
            } catch (Exception | Error e) {
                failed.accept(e);
            }
        }

        @Override
        public void close() {
        }
    }
}
