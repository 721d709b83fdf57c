<?xml version="1.0" encoding="UTF-8"?>
<!-- chasqui's EXSLT shim: what SUNAT's validation XSLs (written for IBM DataPower / libxslt) call and a standard XSLT 3.0
     processor lacks, for SaxonJS. validator/rules.ts copies it beside commons/error/validate_utils.xsl in its prepared
     working copy of sunat/xsl (so relative catalog URLs resolve as they do for SUNAT) and includes it from
     error_utils.xsl. The js: functions are installed on the global object by validator/rules.ts before each run.
       regexp:match, chasqui:native-matches (for Saxon's matches(…, '!'))
                        JavaScript RegExp: SUNAT's patterns use lookaheads and escapes (\/) that XPath regexes refuse;
                        DataPower's (PCRE) and JavaScript's dialects agree on them.
       date:date        today in Lima (the XSLs compare issue dates with it).
       date:difference, date:seconds   calendar-date differences only.
       dyn:evaluate     only the catalog look-ups validate_utils.xsl builds:
                        document('URL')/l/c[@a='x' and @b='y']   and   document('URL')/l/c[@id=V]/@prop -->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:js="http://saxonica.com/ns/globalJS"
    xmlns:regexp="http://exslt.org/regular-expressions"
    xmlns:date="http://exslt.org/dates-and-times"
    xmlns:dyn="http://exslt.org/dynamic"
    xmlns:chasqui="urn:chasqui:validator"
    exclude-result-prefixes="#all">

  <!-- regexp:match(string, regex[, flags]): the string itself when it matches (the XSLs only test for a match) -->
  <xsl:function name="regexp:match" as="xs:string*">
    <xsl:param name="s" as="item()*"/><xsl:param name="re" as="item()*"/>
    <xsl:sequence select="regexp:match($s, $re, '')"/>
  </xsl:function>
  <xsl:function name="regexp:match" as="xs:string*">
    <xsl:param name="s" as="item()*"/><xsl:param name="re" as="item()*"/><xsl:param name="flags" as="item()*"/>
    <xsl:variable name="str" select="string(($s)[1])"/>
    <xsl:sequence select="if (js:chasquiRegexpTest($str, string(($re)[1]), string(($flags)[1]))) then $str else ()"/>
  </xsl:function>

  <!-- matches($input, $regex, '!') in Saxon-HE 9.9 (its native Java engine): same signature as fn:matches -->
  <xsl:function name="chasqui:native-matches" as="xs:boolean">
    <xsl:param name="input" as="xs:string?"/><xsl:param name="regex" as="xs:string"/>
    <xsl:sequence select="js:chasquiRegexpTest(string($input), $regex, '')"/>
  </xsl:function>

  <xsl:function name="date:date" as="xs:string">
    <xsl:sequence select="string(js:chasquiLimaToday())"/>
  </xsl:function>
  <!-- EXSLT date:difference(a, b) = b - a; compares calendar dates (first 10 characters) only -->
  <xsl:function name="date:difference" as="xs:dayTimeDuration?">
    <xsl:param name="a" as="item()*"/><xsl:param name="b" as="item()*"/>
    <xsl:variable name="da" select="substring(string(($a)[1]), 1, 10)"/>
    <xsl:variable name="db" select="substring(string(($b)[1]), 1, 10)"/>
    <xsl:sequence select="if ($da castable as xs:date and $db castable as xs:date) then xs:date($db) - xs:date($da) else ()"/>
  </xsl:function>
  <xsl:function name="date:seconds" as="xs:double">
    <xsl:param name="d" as="item()*"/>
    <xsl:sequence select="if (empty($d)) then number('NaN')
                          else if (($d)[1] instance of xs:duration) then xs:double(seconds-from-duration(($d)[1]) + 60*minutes-from-duration(($d)[1]) + 3600*hours-from-duration(($d)[1]) + 86400*days-from-duration(($d)[1]))
                          else number(($d)[1])"/>
  </xsl:function>

  <xsl:function name="dyn:evaluate" as="item()*">
    <xsl:param name="expr" as="item()*"/>
    <xsl:variable name="e" select="string(($expr)[1])"/>
    <xsl:variable name="url" select="replace($e, &quot;^document\('([^']*)'\).*$&quot;, '$1', 's')"/>
    <xsl:variable name="rest" select="substring-after($e, '/l/c[')"/>
    <xsl:variable name="cond" select="substring-before($rest, ']')"/>
    <xsl:variable name="tail" select="substring-after($rest, ']')"/>
    <xsl:variable name="pairs" select="tokenize($cond, '\s+and\s+')"/>
    <xsl:variable name="rows" select="document($url)/l/c[
        every $p in $pairs satisfies
          (string(@*[local-name() = normalize-space(substring-after(substring-before($p, '='), '@'))])
             = replace(normalize-space(substring-after($p, '=')), &quot;^'(.*)'$&quot;, '$1')
           or (not(starts-with(normalize-space(substring-after($p, '=')), &quot;'&quot;))
               and number(@*[local-name() = normalize-space(substring-after(substring-before($p, '='), '@'))])
                   = number(normalize-space(substring-after($p, '=')))))]"/>
    <xsl:sequence select="if (starts-with($tail, '/@')) then $rows/@*[local-name() = substring-after($tail, '/@')] else $rows"/>
  </xsl:function>
</xsl:stylesheet>
