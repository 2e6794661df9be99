-- rate_timeline: each flow's delivered payload rate over time, in bins, from
-- the deliver events of the packet log. Needs --packets data or all.
-- params: run (a run folder), bin_ns (bin width, ns, e.g. 10000)
--
-- payload = wire bytes - the run's header_bytes (summary.json config);
-- rate_bps = payload bits / bin width. Over a lossless run the payload of a
-- flow's bins adds up to its size_bytes (a retransmitted copy would count
-- twice). t_ns is the bin start; bins without deliveries are absent.
with hdr as (
    select config.header_bytes as header_bytes
    from read_json(getvariable('run') || '/summary.json')
)
select
    flow_id,
    (t_ns // getvariable('bin_ns')) * getvariable('bin_ns')     as t_ns,
    sum(bytes - hdr.header_bytes)::bigint                        as payload_bytes,
    sum(bytes - hdr.header_bytes)::double * 8e9 / getvariable('bin_ns') as rate_bps,
    count(*)                                                     as pkts,
    count(*) filter (where ce)                                   as ce_pkts
from read_parquet(getvariable('run') || '/packets.parquet'), hdr
where event = 'deliver' and kind = 'DATA'
group by all
order by flow_id, t_ns;
