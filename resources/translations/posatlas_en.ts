<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>posatlas::ui::ExplorerFigures</name>
    <message numerus="yes">
        <source>%1: %n never-seen</source>
        <translation>
            <numerusform>%1: %n never-seen pair</numerusform>
            <numerusform>%1: %n never-seen pairs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ListSliders</name>
    <message numerus="yes">
        <source>%n of them have a chosen slope.</source>
        <translation>
            <numerusform>%n of them has a chosen slope.</numerusform>
            <numerusform>%n of them have a chosen slope.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ParameterPanel</name>
    <message numerus="yes">
        <source>%n values: %1%2</source>
        <translation>
            <numerusform>%n value: %1%2</numerusform>
            <numerusform>%n values: %1%2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>posatlas::ui::TokenLayoutJob</name>
    <message numerus="yes">
        <source>text · %n token(s)</source>
        <translation>
            <numerusform>text · %n token</numerusform>
            <numerusform>text · %n tokens</numerusform>
        </translation>
    </message>
</context>
</TS>
