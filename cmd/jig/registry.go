package main

// The agents jig knows: jig/registry registers them, for jig-fast too.
import _ "jig/registry"
