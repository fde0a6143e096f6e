#!/bin/sh
# Run by pam_exec in a test stack: breaks the policy file in place.
echo 'this is not libconfig' >> "$1"
