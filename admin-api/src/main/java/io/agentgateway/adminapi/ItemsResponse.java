package io.agentgateway.adminapi;

import java.util.List;

/** {@code {ok:true, items:[...]}}: the shape of every admin list. */
record ItemsResponse<T>(boolean ok, List<T> items) {
    static <T> ItemsResponse<T> of(List<T> items) {
        return new ItemsResponse<>(true, items);
    }
}
