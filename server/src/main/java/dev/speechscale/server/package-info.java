package dev.speechscale.server;
