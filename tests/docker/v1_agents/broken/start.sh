#!/bin/bash
echo never runs
