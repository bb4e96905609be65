"""DVC stage entry points: one thin module per stage (read params, call the library, write outputs).

Run as ``python -m stages.<kind>`` (how every stage of the plan is run), the process is one stage from start
to exit. It first offers the stage to the resident stage server (:mod:`mlebench.resident`), which runs it in
a fork of an interpreter that imported the stage modules already, and exits as that fork did; else (no
server yet, turned off, under the scheduler) it runs the stage itself, with the cyclic garbage collector off
while its modules are imported: pydantic's models, pandas and the Docker SDK allocate enough to trigger
collections that free next to nothing (importing the three cell stages: 95 collections, 485 objects freed of
41,584). :func:`mlebench.stage.run_stage` freezes what the imports built and turns collection back on before
the stage's own work. Anything else that imports this package (the scheduler, the tests) is left as it is.
"""

import gc
import os
import sys

if sys.argv[:1] == ["-m"]:  # set so while ``python -m`` imports the package of the module it will run
    gc.disable()
    from mlebench.resident import hand_off

    _code = hand_off(__name__)  # run in the resident server, where everything is imported already
    if _code is not None:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_code)
