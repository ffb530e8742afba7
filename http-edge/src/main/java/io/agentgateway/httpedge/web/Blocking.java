package io.agentgateway.httpedge.web;

import java.util.concurrent.Callable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Runs blocking work (JDBC, remote key fetches) off the event loop. */
public final class Blocking {
    private Blocking() {}

    public static <T> Mono<T> call(Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
    }
}
