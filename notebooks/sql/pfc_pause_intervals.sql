-- pfc_pause_intervals: every PFC pause a port asked of its peer, from the
-- PAUSE and RESUME frames in the packet log. Needs --packets all.
-- params: run (a run folder)
--
-- (node, port) sent the frames; peer_node is the node whose transmissions
-- of class prio stopped. A pause runs from a PAUSE frame to the next RESUME
-- of the same (node, port, prio); PAUSEs repeated before it extend the same
-- pause. end_ns and duration_ns are NULL when no RESUME followed before the
-- run ended. Times are when the frames left (node, port): the peer pauses
-- one link delay and frame time later, for as long.
with fr as (
    select node, port, prio, kind, t_ns,
           lag(kind) over (partition by node, port, prio order by t_ns) as prev_kind
    from read_parquet(getvariable('run') || '/packets.parquet')
    where event = 'dequeue' and kind in ('PAUSE', 'RESUME')
),
grouped as (
    -- pause number k counts the PAUSEs that follow a RESUME (or nothing)
    select *,
           sum(case when kind = 'PAUSE' and coalesce(prev_kind, 'RESUME') = 'RESUME' then 1 else 0 end)
               over (partition by node, port, prio order by t_ns rows unbounded preceding) as k
    from fr
),
pauses as (
    select node, port, prio, k,
           min(t_ns) filter (where kind = 'PAUSE')   as start_ns,
           min(t_ns) filter (where kind = 'RESUME')  as end_ns,
           count(*) filter (where kind = 'PAUSE')    as pause_frames
    from grouped
    where k > 0
    group by node, port, prio, k
)
select
    s.node, s.port, p.peer_node, s.prio, s.start_ns, s.end_ns,
    s.end_ns - s.start_ns  as duration_ns,
    s.pause_frames
from pauses s
join read_parquet(getvariable('run') || '/ports.parquet') p using (node, port)
order by s.node, s.port, s.prio, s.start_ns;
