-- oauth_state_uses is no read model: the ingress writes it, and since issue 18 the ingress migrates it itself, in
-- schema "ingress" (ingress-api: db/migration/ingress/V1). The copy V5 made goes, so that a rebuild's schema holds
-- none and the rebuild's switch (which moves the tables of the rebuilt schema into public) never replaces the
-- ingress's table. A live table that still holds rows (spent states of an ingress not yet upgraded) is left for the
-- ingress's V1, which carries them over and drops it.
do $$
begin
    if to_regclass('oauth_state_uses') is not null and not exists (select 1 from oauth_state_uses) then
        drop table oauth_state_uses;
    end if;
end $$;
