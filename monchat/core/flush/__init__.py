"""The flush: hidden filter personas read the unflushed logs; a program weighs the evidence.

Stages (one module each): orient → score → judge → consolidate → prune → rebuild,
run by ``service.FlushService``. Stages 2–3 call the LLM and write nothing;
stages 1 and 4–6 write inside one transaction.
"""
