# The grading image: the base environment plus the modules grading imports (derived from the code). A grader container runs one cell's
# grading after the agent's container is gone: it mounts that competition's answers read-only, has no
# network, and runs as the unprivileged uid 1000. Built by mlebench.execution.docker.images (mlebench-grader:<hash>).
ARG ENV_IMAGE=mlebench-env
FROM ${ENV_IMAGE}
COPY graders/ /mlebench/graders/
COPY mlebench/ /mlebench/mlebench/
COPY mlebench_spec/ /mlebench/mlebench_spec/
# Compiled here: the grader runs as uid 1000 on a read-only tree with PYTHONDONTWRITEBYTECODE, so it could
# never cache the bytecode itself and would recompile every module on every grade.
RUN python -m compileall -q /mlebench >/dev/null && chmod -R a+rX,go-w /mlebench && mkdir -p /home/grader/out && chown agent:agent /home/grader/out
ENV MLEBENCH_ROOT=/mlebench PYTHONPATH=/mlebench
WORKDIR /mlebench
