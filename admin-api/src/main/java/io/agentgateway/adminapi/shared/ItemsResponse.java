package io.agentgateway.adminapi.shared;

import java.util.List;

/** {@code {ok:true, items:[...]}}: the shape of every admin list. */
public record ItemsResponse<T>(boolean ok, List<T> items) {
    public static <T> ItemsResponse<T> of(List<T> items) {
        return new ItemsResponse<>(true, items);
    }
}
